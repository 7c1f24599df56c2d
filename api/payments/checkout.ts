// The local provider's checkout page: a plain HTML page and form (no script,
// so it fits a strict Content-Security-Policy), clearly marked as a test
// payment. Its buttons post back here; the provider settles the payment, calls
// the webhook as Mollie would, and the member is sent to the return page.
// Only the member who placed the order sees its page and may press its
// buttons, from this site's own page: the test provider is on only where an
// operator asked for it (api/config.ts), and even there a payment id that
// leaked (a shared link, a log) must not let someone else settle it.
import type { Context } from 'hono'
import { Hono } from 'hono'
import { html } from 'hono/html'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { requestHost } from '../http/host.ts'
import { fromOwnPage } from '../http/origin.ts'
import { sessionMember } from '../http/session.ts'
import { pathOf, validate } from '../http/validate.ts'
import { cachedOperatorSettings } from '../settings/index.ts'
import type { LocalProvider } from './local.ts'
import { orderMember } from './orders.ts'
import { money } from './settle.ts'

/**
 * The site's look (app/theme/tokens.css, classic template) in a few inline
 * rules: no script and no built file, so the page stands alone. A card on the
 * site's page colour, the brand's button for paying, plain ones for the rest.
 */
const CHECKOUT_STYLE = html`
  :root { color-scheme: light; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 1rem;
    box-sizing: border-box; background: #faf7f9; color: #1d1b20;
    font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
  .checkout { width: 100%; max-width: 26rem; background: #fff; border-radius: 16px;
    padding: 1.5rem; box-shadow: 0 6px 24px rgb(29 27 32 / 12%); }
  .checkout__test { margin: 0 0 1rem; padding: 0.75rem; border-radius: 10px;
    background: #fff4e5; color: #5c3a00; font-size: 0.9rem; }
  h1 { margin: 0 0 0.5rem; font-size: 1.5rem; color: #8c0f40; }
  form p { margin: 0.5rem 0; }
  button { width: 100%; min-height: 44px; font: inherit; font-weight: 600; cursor: pointer;
    border-radius: 999px; border: 1px solid #c9c3cc; background: #fff; color: #1d1b20; }
  button[value="paid"] { background: #c2185b; border-color: #c2185b; color: #fff; }
  button:focus-visible, a:focus-visible { outline: 3px solid #8c0f40; outline-offset: 2px; }
  a { color: #8c0f40; }
  .checkout__site { display: flex; align-items: center; gap: 0.5rem; margin: 0 0 1rem;
    font-weight: 700; font-size: 1.125rem; color: #1d1b20; text-decoration: none; }
  .checkout__site svg { width: 1.5rem; height: 1.5rem; color: #c2185b; }
`

/**
 * The site's mark (the heart of app/ui/TopNav.tsx, lucide's "heart") and name
 * at the top, as a provider's hosted page shows the merchant it pays.
 */
const siteHeader = (name: string) => html`<a class="checkout__site" href="/">
  <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"
    stroke-linejoin="round" aria-hidden="true"><path d="M19 14c1.49-1.46 3-3.21 3-5.5A5.5 5.5 0 0 0 16.5 3c-1.76 0-3 .5-4.5 2-1.5-1.5-2.74-2-4.5-2A5.5 5.5 0 0 0 2 8.5c0 2.3 1.5 4.05 3 5.5l7 7Z" /></svg>
  ${name}
</a>`

const page = (site: string, title: string, body: ReturnType<typeof html>) => html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>${title}</title>
    <style>${CHECKOUT_STYLE}</style>
  </head>
  <body>
    <main class="checkout">
      ${siteHeader(site)}
      <p class="checkout__test"><strong>TEST PAYMENT: no money moves.</strong> This is the built-in local payment provider; set MOLLIE_API_KEY to take real payments.</p>
      ${body}
    </main>
  </body>
</html>`

/** The payment, when the signed-in member placed its order; else 404 as for an unknown id. */
async function ownPayment(c: Context, db: Db, local: LocalProvider, id: string) {
  const p = await local.find(id)
  const memberId = await sessionMember(c, db)
  if (!p?.orderId || memberId === null || (await orderMember(db, p.orderId)) !== memberId)
    throw notFound()
  return p
}

export const checkoutRoutes = (db: Db, local: LocalProvider, { trustProxy = false } = {}) =>
  new Hono()
    .get(
      pathOf(endpoints.localCheckout),
      validate('query', endpoints.localCheckout.query),
      async (c) => {
        const p = await ownPayment(c, db, local, c.req.valid('query').id)
        const amount = money(p.amount, p.currency, 'en')
        const site = (await cachedOperatorSettings(db, requestHost(c, trustProxy))).name
        if (p.status !== 'open') {
          return c.html(
            page(
              site,
              'Test payment',
              html`<h1>Test payment ${p.status}</h1>
                <p><a href="${p.redirectUrl ?? '/'}">Back to the site</a></p>`,
            ),
          )
        }
        return c.html(
          page(
            site,
            `Test payment: ${amount}`,
            html`<h1>Test payment: ${amount}</h1>
              <p>${p.description}</p>
              <p>Method: ${p.method ?? 'any'}</p>
              <form method="post" action="${endpoints.localCheckoutAction.path}">
                <input type="hidden" name="id" value="${p.id}" />
                <p><button type="submit" name="action" value="paid">Pay ${amount}</button></p>
                <p><button type="submit" name="action" value="failed">Fail</button></p>
                <p><button type="submit" name="action" value="canceled">Cancel</button></p>
                <p><button type="submit" name="action" value="later">Pay later (leave it open)</button></p>
              </form>`,
          ),
        )
      },
    )
    .post(
      pathOf(endpoints.localCheckoutAction),
      validate('form', endpoints.localCheckoutAction.body),
      async (c) => {
        const { id, action } = c.req.valid('form')
        if (!fromOwnPage(c, trustProxy)) throw new ApiFailure(403, 'cross_origin_refused')
        const p = await ownPayment(c, db, local, id)
        if (action !== 'later') await local.settle(id, action)
        return c.redirect(p.redirectUrl ?? '/', 303)
      },
    )
