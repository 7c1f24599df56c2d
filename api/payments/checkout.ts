// The local provider's checkout page: a plain HTML page and form (no script,
// so it fits a strict Content-Security-Policy), clearly marked as a test
// payment. Its buttons post back here; the provider settles the payment, calls
// the webhook as Mollie would, and the member is sent to the return page.
import { Hono } from 'hono'
import { html } from 'hono/html'
import { endpoints } from '../contract/endpoints.ts'
import { notFound } from '../http/errors.ts'
import { pathOf, validate } from '../http/validate.ts'
import type { LocalProvider } from './local.ts'
import { money } from './settle.ts'

const page = (title: string, body: ReturnType<typeof html>) => html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>${title}</title>
  </head>
  <body>
    <main>
      <p><strong>TEST PAYMENT: no money moves.</strong> This is the built-in local payment provider; set MOLLIE_API_KEY to take real payments.</p>
      ${body}
    </main>
  </body>
</html>`

export const checkoutRoutes = (local: LocalProvider) =>
  new Hono()
    .get(
      pathOf(endpoints.localCheckout),
      validate('query', endpoints.localCheckout.query),
      async (c) => {
        const p = await local.find(c.req.valid('query').id)
        if (!p) throw notFound()
        const amount = money(p.amount, p.currency, 'en')
        if (p.status !== 'open') {
          return c.html(
            page(
              'Test payment',
              html`<h1>Test payment ${p.status}</h1>
                <p><a href="${p.redirectUrl ?? '/'}">Back to the site</a></p>`,
            ),
          )
        }
        return c.html(
          page(
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
        const p = await local.find(id)
        if (!p) throw notFound()
        if (action !== 'later') await local.settle(id, action)
        return c.redirect(p.redirectUrl ?? '/', 303)
      },
    )
