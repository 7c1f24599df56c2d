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
import { testPage } from '../http/test-page.ts'
import { pathOf, validate } from '../http/validate.ts'
import { cachedOperatorSettings } from '../settings/index.ts'
import type { LocalProvider } from './local.ts'
import { orderMember } from './orders.ts'
import { money } from './settle.ts'

const page = (site: string, title: string, body: ReturnType<typeof html>) =>
  testPage({
    title,
    site,
    banner: html`<strong>TEST PAYMENT: no money moves.</strong> This is the built-in local payment provider; set MOLLIE_API_KEY to take real payments.`,
    body,
  })

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
                <p><button type="submit" class="primary" name="action" value="paid">Pay ${amount}</button></p>
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
