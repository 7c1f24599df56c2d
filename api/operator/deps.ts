import type { Db } from '../../db/client.ts'
import type { EventBus } from '../events/bus.ts'
import type { PictureStore } from '../images/index.ts'
import type { JobRunner } from '../jobs/queue.ts'
import type { AccountsDeps } from '../mail/site.ts'
import type { PaymentProvider } from '../payments/index.ts'

/** What the console's parts need: the app's own dependencies, passed by createApi. */
export interface OperatorDeps {
  db: Db
  accounts: AccountsDeps
  jobs: JobRunner
  payments: PaymentProvider
  events: EventBus
  /** Where pictures are stored (api/images/storage.ts): a removed photo's files are deleted from it; the export reads them. */
  pictures?: PictureStore | undefined
}
