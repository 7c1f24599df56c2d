// The API with the built-in local payment provider and a job runner, on a
// fresh database: the set-up of the payments suites (orders, discount codes),
// with the provider's webhook and the checkout id of an order's checkout URL.
import { type Api, createApi } from '../app.ts'
import { createJobRunner, type JobRunner } from '../jobs/queue.ts'
import { createMailer } from '../mail/mailer.ts'
import { type LocalProvider, localProvider } from '../payments/local.ts'
import { type Engine, freshDatabase, type TestDatabase } from './databases.ts'
import { send } from './http.ts'

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
    webhook: (id) =>
      send(app, '/api/payments/webhook.php', {
        method: 'POST',
        body: `id=${encodeURIComponent(id)}`,
        contentType: 'application/x-www-form-urlencoded',
        origin: null,
      }),
    close: async () => {
      await jobs.stop()
      await database.close()
    },
  }
}

/** The local provider's payment id in an order's checkout URL. */
export const checkoutId = (url: string | null) => new URL(url ?? '').searchParams.get('id') ?? ''
