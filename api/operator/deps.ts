import type { Db } from '../../db/client.ts'
import type { EventBus } from '../events/bus.ts'
import type { JobRunner } from '../jobs/queue.ts'
import type { PaymentProvider } from '../payments/index.ts'
import type { AccountsDeps } from '../shared/site.ts'

/** What the console's parts need: the app's own dependencies, passed by createApi. */
export interface OperatorDeps {
  db: Db
  accounts: AccountsDeps
  jobs: JobRunner
  payments: PaymentProvider
  events: EventBus
  /** Where pictures are stored (MEDIA_DIR): a removed photo's files are deleted from it. */
  mediaDir?: string | undefined
}
