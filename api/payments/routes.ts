// Buying credits over HTTP (spec §2, §3, §7); the work is in orders.ts and settle.ts.
import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { requireAgeAssurance } from '../age/index.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { PaymentMethod } from '../contract/rules/payments.ts'
import { ApiFailure } from '../http/errors.ts'
import { type AuthEnv, requireMember, sessionMember } from '../http/session.ts'
import { parseOr400, pathOf, queryOf, validate } from '../http/validate.ts'
import type { AccountsDeps } from '../mail/site.ts'
import { linkBase } from '../mail/site.ts'
import { guestViewer } from '../search/index.ts'
import { loadSettings } from '../settings/index.ts'
import { activeDiscount, checkCode, deleteOffer, toDiscount, welcomeCode } from './discounts.ts'
import {
  createOrder,
  creditHistory,
  lastPaidOrder,
  type OrderInput,
  transactionOf,
} from './orders.ts'
import { memberCountry, packagesFor } from './packages.ts'
import { PaymentNotFound, type PaymentProvider } from './provider.ts'
import { settlePayment } from './settle.ts'

export interface PaymentsDeps {
  provider: PaymentProvider
  accounts: AccountsDeps
  /** Poked after a grant so its receipt mail goes out at once. */
  jobs?: { poke(): void }
}

/** The site's address for the provider's links and webhook; 403 for a host that is not the site's. */
const baseOf = (deps: PaymentsDeps, c: Parameters<typeof linkBase>[0]) => {
  const { base } = linkBase(c, deps.accounts)
  if (!base) throw new ApiFailure(403, 'unknown_host', undefined, 'not a host of this site')
  return base
}

/** The packages on sale (public) and the member's discount code. */
const offerRoutes = (db: Db) =>
  new Hono<AuthEnv>()
    .get(pathOf(endpoints.packages), queryOf(endpoints.packages), async (c) => {
      // A country asked for (the /pricing chooser) wins; else the member's, else geo-IP.
      const asked = c.req.valid('query').country
      const memberId = asked ? null : await sessionMember(c, db)
      const mine = memberId ? await memberCountry(db, memberId) : undefined
      const country = mine ?? guestViewer(await loadSettings(db), asked).country
      return c.json(await packagesFor(db, country))
    })
    .get(
      pathOf(endpoints.discountCode),
      requireMember(db),
      queryOf(endpoints.discountCode),
      async (c) => {
        const memberId = c.get('memberId')
        const q = c.req.valid('query')
        const row = q.code
          ? await checkCode(db, memberId, q.code)
          : q.reason === 'delete'
            ? await deleteOffer(db, memberId, (await loadSettings(db)).delete_discount)
            : q.welcome
              ? await welcomeCode(db, memberId)
              : await activeDiscount(db, memberId)
        return c.json({ discount: row ? toDiscount(row) : null })
      },
    )

/** Placing an order, the transaction page's state and the member's credits history. */
const orderRoutes = (db: Db, deps: PaymentsDeps) =>
  new Hono<AuthEnv>()
    // One path for both (spec §7 naming): `?repeat=1` buys the last paid package again.
    .post(pathOf(endpoints.order), requireMember(db), async (c) => {
      // No provider configured (api/config.ts): nothing is ordered, and the
      // page says that buying is unavailable (not "try again").
      if (deps.provider.name === 'none')
        throw new ApiFailure(
          503,
          'payments_unavailable',
          undefined,
          'buying credits is unavailable',
        )
      const memberId = c.get('memberId')
      const raw = await c.req.json().catch(() => undefined)
      const repeat = c.req.query('repeat') === '1'
      let input: OrderInput
      if (repeat) {
        const body = parseOr400(endpoints.repeatOrder.body, raw)
        const last = await lastPaidOrder(db, memberId)
        if (!last)
          throw new ApiFailure(409, 'no_previous_order', undefined, 'nothing to repeat yet')
        input = {
          package: last.packageId,
          method: last.method as PaymentMethod,
          clientId: body.client_id,
          repeat: true,
          withdrawalConsent: body.withdrawal_consent,
        }
      } else {
        const body = parseOr400(endpoints.order.body, raw)
        input = {
          package: body.package,
          method: body.method,
          discountCode: body.discount_code,
          clientId: body.client_id,
          withdrawalConsent: body.withdrawal_consent,
        }
      }
      await requireAgeAssurance(db, memberId, c.req.header('host'), 'purchase')
      const orderDeps = { provider: deps.provider, base: baseOf(deps, c) }
      const { created, answer } = await createOrder(db, orderDeps, memberId, input)
      return c.json(answer, created ? 201 : 200)
    })
    .get(pathOf(endpoints.transaction), queryOf(endpoints.transaction), async (c) =>
      c.json(await transactionOf(db, c.req.valid('query').id)),
    )
    .get(pathOf(endpoints.creditHistory), requireMember(db), async (c) =>
      c.json(await creditHistory(db, c.get('memberId'))),
    )

/** The provider's webhook (no session: the provider calls it). */
const webhookRoutes = (db: Db, deps: PaymentsDeps) =>
  new Hono<AuthEnv>().post(
    pathOf(endpoints.paymentWebhook),
    validate('form', endpoints.paymentWebhook.body),
    async (c) => {
      const { id } = c.req.valid('form')
      try {
        await settlePayment(db, { provider: deps.provider, base: baseOf(deps, c) }, id)
      } catch (e) {
        // Mollie's advice: an id we do not know gets a 200 all the same,
        // so the webhook does not tell a prober which ids exist.
        if (e instanceof PaymentNotFound) return c.body(null, 200)
        if (e instanceof ApiFailure) throw e
        console.error('payments: webhook could not ask the provider', e)
        // The provider delivers again later (Mollie retries a non-2xx).
        throw new ApiFailure(503, 'payment_provider_unavailable')
      }
      deps.jobs?.poke()
      return c.body(null, 200)
    },
  )

/**
 * Buying credits: packages (public), discount codes, orders, the public
 * transaction page's state, the member's credits history, and the
 * provider's webhook (no session: the provider calls it).
 */
export function paymentsRoutes(db: Db, deps: PaymentsDeps) {
  return new Hono<AuthEnv>()
    .route('/', offerRoutes(db))
    .route('/', orderRoutes(db, deps))
    .route('/', webhookRoutes(db, deps))
}
