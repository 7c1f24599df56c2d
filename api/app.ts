import { Hono } from 'hono'
import type { Db } from '../db/client.ts'
import { activityRoutes } from './accounts/activity-routes.ts'
import { type AccountsDeps, accountsFromEnv } from './accounts/deps.ts'
import { authRoutes } from './accounts/login-routes.ts'
import { accountRoutes } from './accounts/routes.ts'
import { userRoutes } from './accounts/user-routes.ts'
import { type CamsDeps, camsFromEnv, camsRoutes } from './cams/routes.ts'
import { chatRoutes } from './chats/chat-routes.ts'
import { messageRoutes } from './chats/message-routes.ts'
import { chatsRoutes } from './chats/routes.ts'
import { type EventBus, silentBus } from './events/bus.ts'
import { bodyGate } from './http/body.ts'
import { ApiFailure, onError } from './http/errors.ts'
import { sameOriginOnly } from './http/origin.ts'
import { imageRoutes } from './images/routes.ts'
import { createJobRunner, type JobRunner } from './jobs/queue.ts'
import { likesRoutes } from './likes/routes.ts'
import { mailJobs } from './mail/mailer.ts'
import { devMailRoutes } from './mail/routes.ts'
import { profileRoutes } from './profiles/routes.ts'
import { referenceRoutes } from './reference/routes.ts'
import { searchRoutes } from './search/routes.ts'
import { settingsRoutes } from './settings/routes.ts'

export interface AppDeps {
  db: Db
  /** The webcam feed and click targets; default from the environment (api/config.ts). */
  cams?: CamsDeps
  /** Mailer, link base and proxy trust of the account routes; default from the environment. */
  accounts?: AccountsDeps
  /** Where uploaded pictures go (MEDIA_DIR); without it uploads answer 503. */
  mediaDir?: string
  /**
   * The job queue's runner for `db` (api/jobs/); createApi registers the
   * domains' job kinds on it. Default: a runner that works when poked after a
   * commit but does not poll (the server starts polling, see api/start.ts).
   */
  jobs?: JobRunner
  /**
   * Live pokes (GET /api/events.php) through LISTEN/NOTIFY; api/start.ts
   * passes one on the database's own LISTEN. Default: none arrive, and
   * clients poll (spec §9).
   */
  events?: EventBus
}

/**
 * The API as a pure value: tests call `createApi(deps).request(...)`, the
 * server mounts it next to the static PWA. It keeps no state in memory.
 */
export function createApi({
  db,
  cams = camsFromEnv(),
  accounts = accountsFromEnv(),
  mediaDir,
  jobs = createJobRunner({ db, handlers: {} }),
  events = silentBus(),
}: AppDeps) {
  jobs.register(mailJobs(db, accounts.mailer))
  accounts.mailer.attach(jobs)
  const api = new Hono()
    .use(sameOriginOnly)
    // JSON bodies are small; the limit stops a client from making the server
    // buffer megabytes. Multipart only for the picture upload (its own limit);
    // any other kind of body is a 415 before it is read (api/http/body.ts).
    .use(bodyGate)
    .use(async (c, next) => {
      await next()
      // Member data never sits in a shared or browser HTTP cache; offline
      // copies live in the member's IndexedDB and are wiped on logout.
      c.header('Cache-Control', 'no-store')
    })
    .route('/', authRoutes(db, accounts))
    .route('/', userRoutes(db, accounts))
    .route('/', accountRoutes(db, accounts))
    .route('/', imageRoutes(db, mediaDir))
    .route('/', referenceRoutes(db, accounts))
    .route('/', devMailRoutes(db, accounts.mailer))
    .route('/', searchRoutes(db))
    .route('/', chatsRoutes(db))
    .route('/', activityRoutes(db))
    .route('/', settingsRoutes(db))
    .route('/', likesRoutes(db))
    .route('/', profileRoutes(db))
    .route('/', chatRoutes(db))
    .route(
      '/',
      messageRoutes(db, {
        events,
        accounts,
        complaintsTo: process.env.COMPLAINTS_EMAIL ?? 'complaints@localhost',
        dev: accounts.mailer.devListing,
        jobs,
      }),
    )
    .route('/', camsRoutes(db, cams))

  return new Hono()
    .onError(onError)
    .route('/api', api)
    .all('/api/*', () => {
      // Not an endpoint of the table (api/contract/endpoints.ts); the message
      // tells it apart from a resource that does not exist.
      throw new ApiFailure(404, 'not_found', undefined, 'no such endpoint')
    })
}
export type Api = ReturnType<typeof createApi>
