// The API with the built-in local payment provider and a job runner, on a
// fresh database: the set-up of the payments suites (orders, discount codes),
// with the provider's webhook and the checkout id of an order's checkout URL;
// and a member's paid order (the refund and withdrawal suites).
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import type { Db } from '../../db/client.ts'
import { orders } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { OrderResponse } from '../contract/index.ts'
import { balanceOf } from '../credits/index.ts'
import { createJobRunner, type JobRunner } from '../jobs/queue.ts'
import { createMailer } from '../mail/mailer.ts'
import { type LocalProvider, localProvider } from '../payments/local.ts'
import { type Engine, freshDatabase, type TestDatabase } from './databases.ts'
import { login, send } from './http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from './seed.ts'

export interface PaymentsApp {
  database: TestDatabase
  app: Api
  local: LocalProvider
  jobs: JobRunner
  /** The provider's webhook for payment `id`, as Mollie calls it (a form, no origin). */
  webhook(id: string): Promise<Response>
  close(): Promise<void>
}

export async function paymentsApp(engine: Engine): Promise<PaymentsApp> {
  const database = await freshDatabase(engine)
  const local = localProvider(database.db)
  const jobs = createJobRunner({ db: database.db, handlers: {} })
  const app = createApi({
    db: database.db,
    payments: local,
    jobs,
    accounts: {
      mailer: createMailer({ devListing: true }),
      trustProxy: false,
      publicUrl: undefined,
    },
  })
  return {
    database,
    app,
    local,
    jobs,
    webhook: (id) => providerWebhook(app, id),
    close: async () => {
      await jobs.stop()
      await database.close()
    },
  }
}

/** The provider's webhook for payment `id`, as Mollie calls it (a form, no origin). */
export const providerWebhook = (app: Api, id: string) =>
  send(app, '/api/payments/webhook.php', {
    method: 'POST',
    body: `id=${encodeURIComponent(id)}`,
    contentType: 'application/x-www-form-urlencoded',
    origin: null,
  })

/** The local provider's payment id in an order's checkout URL. */
export const checkoutId = (url: string | null) => new URL(url ?? '').searchParams.get('id') ?? ''

/** The seeded "popular" package: 250 credits + 25 bonus for € 19.95, pinned. */
export const POPULAR = { credits: 275, eur: 1995 }

export interface PaidOrder {
  member: MemberRow
  cookie: string
  /** The order's public id. */
  order: string
  /** The order's row id. */
  orderId: number
  paymentId: string
}

/**
 * A new member (in `language`) who ordered the popular package with the
 * withdrawal consent and paid: `pay` marks the payment paid at the provider,
 * then the provider's webhook grants the credits. With `buyer`, that member
 * buys once more instead.
 */
export async function paidOrder(
  app: Api,
  db: Db,
  pay: (paymentId: string) => unknown,
  language = 'en',
  buyer?: { member: MemberRow; cookie: string },
): Promise<PaidOrder> {
  const member = buyer?.member ?? (await addMember(db, { language }))
  const cookie = buyer?.cookie ?? (await login(app, member.email, TEST_PASSWORD))
  const before = await balanceOf(db, member.id)
  const res = await send(app, '/api/orders.php', {
    method: 'POST',
    body: {
      client_id: randomUUID(),
      package: 'popular',
      method: 'ideal',
      withdrawal_consent: true,
    },
    cookie,
  })
  expect(res.status).toBe(201)
  const { transaction } = OrderResponse.parse(await res.json())
  const [o] = await db.select().from(orders).where(eq(orders.publicId, transaction.id))
  const paymentId = o?.paymentId as string
  await pay(paymentId)
  expect((await providerWebhook(app, paymentId)).status).toBe(200)
  expect(await balanceOf(db, member.id)).toBe(before + POPULAR.credits)
  return { member, cookie, order: transaction.id, orderId: o?.id as number, paymentId }
}
