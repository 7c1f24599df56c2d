import { Hono } from 'hono'
import type { Db } from '../db/client.ts'
import type { ReadRouter } from '../db/replica.ts'
import {
  accountRoutes,
  activityRoutes,
  authRoutes,
  exportRoutes,
  userRoutes,
} from './accounts/index.ts'
import {
  type AgeDeps,
  ageFromEnv,
  ageRoutes,
  type Dispatch,
  testWalletRoutes,
} from './age/index.ts'
import { badgeOf } from './badge.ts'
import { type CamsDeps, camsFromEnv, camsRoutes } from './cams/index.ts'
import {
  chatRoutes,
  chatsRoutes,
  type EventsTiming,
  giftSendRoutes,
  messageMailJobHandlers,
  messageRoutes,
  photoRoutes,
  voiceRoutes,
} from './chats/index.ts'
import { complaintRoutes } from './complaints/index.ts'
import { loadPaymentsConfig, loadSendGathering, type SendGathering } from './config.ts'
import { type EndpointDef, endpoints } from './contract/endpoints.ts'
import { forgetMessageCost, MESSAGE_COST_CACHE } from './credits/index.ts'
import { type EventBus, silentBus } from './events/bus.ts'
import { giftRoutes } from './gifts/index.ts'
import { etag, jsonAsBytes } from './http/answer-bytes.ts'
import { bodyGate } from './http/body.ts'
import { createLifecycle, type Lifecycle } from './http/drain.ts'
import { ApiFailure, onError } from './http/errors.ts'
import { healthRoutes } from './http/health.ts'
import { metricsRoutes } from './http/metrics.ts'
import { sameOriginOnly } from './http/origin.ts'
import { primaryReads, type ReadsFor, readsOf, rememberWrites } from './http/reads.ts'
import { type Logger, requestLog } from './http/request-log.ts'
import { securityHeaders } from './http/security-headers.ts'
import type { ClockEnv } from './http/session.ts'
import { withDirectStreams } from './http/sse.ts'
import { pathOf } from './http/validate.ts'
import {
  diskStore,
  imageRoutes,
  mediaJobHandlers,
  type PictureStore,
  photoFaceJobHandlers,
} from './images/index.ts'
import { createJobRunner, dueJobCount, type JobRunner } from './jobs/queue.ts'
import { likeFlags, likesRoutes } from './likes/index.ts'
import { mailJobs } from './mail/mailer.ts'
import { devMailRoutes } from './mail/routes.ts'
import { type AccountsDeps, accountsFromEnv } from './mail/site.ts'
import {
  appealRoutes,
  bannedMemberSql,
  transparencyFromEnv,
  transparencyJobs,
} from './moderation/index.ts'
import { operatorRoutes } from './operator/index.ts'
import {
  checkoutRoutes,
  type LocalProvider,
  localProvider,
  mollieProvider,
  type PaymentProvider,
  paymentJobs,
  paymentsRoutes,
  unavailableProvider,
  withdrawalJobs,
  withdrawalRoutes,
} from './payments/index.ts'
import { presenceRoutes, recordVisit } from './presence/index.ts'
import { profileFieldRoutes, profileRoutes } from './profiles/index.ts'
import { pushRoutes } from './push/index.ts'
import { referenceRoutes } from './reference/index.ts'
import { searchRoutes } from './search/index.ts'
import { sessionRoutes } from './sessions/index.ts'
import { forgetOperatorSettings, SETTINGS_CACHE, settingsRoutes } from './settings/index.ts'
import { trafficRoutes } from './traffic/index.ts'
import { faceJobHandlers, photoFaceCheck, verificationRoutes } from './verification/index.ts'

export interface AppDeps {
  db: Db
  /**
   * Where the read-only hot paths read (db/replica.ts, DATABASE_REPLICA_URL):
   * api/start.ts passes a replica's router. Default: the primary `db`.
   */
  reads?: ReadRouter
  /** The webcam feed and click targets; default from the environment (api/config.ts). */
  cams?: CamsDeps
  /** Age assurance providers and their trust anchors; default from the environment (api/age/config.ts). */
  age?: AgeDeps
  /** Mailer, link base and proxy trust of the account routes; default from the environment. */
  accounts?: AccountsDeps
  /**
   * Where pictures are kept (api/images/storage.ts: a directory or an S3
   * bucket; api/start.ts passes the configured one). Without it and without
   * `mediaDir`, uploads answer 503.
   */
  pictures?: PictureStore
  /** Shorthand for `pictures: diskStore(mediaDir)` (tests, benchmarks). */
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
  /** The clock of session expiry (api/http/session.ts); tests move it. Default: the real time. */
  now?: () => Date
  /**
   * The payment provider: Mollie when MOLLIE_API_KEY is set (MOLLIE_API_ENDPOINT
   * points it elsewhere), the built-in test provider when configured
   * (PAYMENTS=test, a demo start), else none (api/config.ts loadPaymentsConfig).
   */
  payments?: PaymentProvider
  /** The event stream's keep-alive and session-check periods; tests shorten them. */
  eventsTiming?: EventsTiming
  /**
   * Per-member limits on messages and likes (api/http/member-limits.ts);
   * default on. Benchmarks and tests that send or like in bulk on purpose
   * turn them off.
   */
  memberLimits?: boolean
  /** When paid sends go together (api/chats/send-batch.ts); default: the environment's (api/config.ts loadSendGathering). */
  sendGathering?: SendGathering
  /** Whether the process is stopping: GET /readyz answers 503 then (api/http/health.ts). */
  lifecycle?: Lifecycle
  /** Where the request lines go (api/http/request-log.ts); default: stdout at LOG_LEVEL. */
  logger?: Logger
}

/** The provider the configuration names (api/config.ts loadPaymentsConfig). */
export function paymentsFromEnv(db: Db, env: NodeJS.ProcessEnv = process.env): PaymentProvider {
  const config = loadPaymentsConfig(env)
  switch (config.kind) {
    case 'mollie':
      return mollieProvider({
        apiKey: config.apiKey,
        ...(config.apiEndpoint ? { apiEndpoint: config.apiEndpoint } : {}),
      })
    case 'test':
      return localProvider(db)
    case 'off':
      return unavailableProvider()
  }
}

/** The picture store of `deps`: `pictures`, else a directory `mediaDir`, else none. */
export const picturesOf = (deps: Pick<AppDeps, 'pictures' | 'mediaDir'>) =>
  deps.pictures ?? (deps.mediaDir ? diskStore(deps.mediaDir) : undefined)

/** Paths of GETs that change something. */
const GET_WITH_EFFECTS = new Set(
  (Object.values(endpoints) as EndpointDef[])
    .filter((e) => e.method === 'GET' && e.effects)
    .map((e) => e.path),
)

const isLocal = (p: PaymentProvider): p is LocalProvider => p.name === 'local' && 'settle' in p

/** The dependencies with their defaults filled in, as the wiring below uses them. */
interface Wiring
  extends Required<
      Pick<AppDeps, 'db' | 'cams' | 'age' | 'accounts' | 'jobs' | 'events' | 'sendGathering'>
    >,
    Pick<AppDeps, 'now' | 'eventsTiming' | 'logger'> {
  payments: PaymentProvider
  memberLimits: boolean
  lifecycle: Lifecycle
  store: PictureStore | undefined
  complaintsTo: string
  reads: ReadRouter | undefined
  /** The handle of a read-only answer: the replica's or the primary's. */
  readsFor: ReadsFor
}

/**
 * The API as a pure value: tests call `createApi(deps).request(...)`, the
 * server mounts it next to the static PWA. It keeps no state in memory.
 */
export function createApi({
  db,
  cams = camsFromEnv(),
  age = ageFromEnv(db),
  accounts = accountsFromEnv(),
  pictures,
  mediaDir,
  jobs = createJobRunner({ db, handlers: {} }),
  events = silentBus(),
  now,
  payments = paymentsFromEnv(db),
  eventsTiming,
  memberLimits = true,
  sendGathering = loadSendGathering(),
  lifecycle = createLifecycle(),
  logger,
  reads,
}: AppDeps) {
  const w: Wiring = {
    db,
    cams,
    age,
    accounts,
    jobs,
    events,
    now,
    payments,
    eventsTiming,
    memberLimits,
    sendGathering,
    lifecycle,
    logger,
    store: picturesOf({ pictures, mediaDir }),
    complaintsTo: process.env.COMPLAINTS_EMAIL ?? 'complaints@localhost',
    reads,
    readsFor: reads ? readsOf(reads) : primaryReads(db),
  }
  registerJobs(w)
  // What this process caches is dropped when any process changes it
  // (notifyCacheChange, api/events/bus.ts), and when LISTEN is (back) in place.
  events.onCacheChange((cache) => {
    if (cache === null || cache === MESSAGE_COST_CACHE) forgetMessageCost(db)
    if (cache === null || cache === SETTINGS_CACHE) forgetOperatorSettings(db)
  })
  const api = mountDomains(apiMiddleware(w), w)
  const builtWith = mountTestProviders(api, w)

  const app = new Hono()
    .onError(onError)
    .use(requestLog({ trustProxy: accounts.trustProxy ?? false, ...(logger ? { logger } : {}) }))
    .route('/', metricsRoutes({ db, queueDepth: () => dueJobCount(db), reads, events }))
    .use(securityHeaders(accounts))
    .route('/', healthRoutes({ db, events, lifecycle }))
    .route('/api', api)
    .all('/api/*', () => {
      // Not an endpoint of the table (api/contract/endpoints.ts); the message
      // tells it apart from a resource that does not exist.
      throw new ApiFailure(404, 'not_found', undefined, 'no such endpoint')
    })
  builtWith(app)
  // Event streams write to Node's response once the middleware above finished their head.
  return withDirectStreams(app)
}

/**
 * The built-in test providers' pages, when on: the test payments' checkout
 * and the age check's test wallet. Both talk to the site through the app's
 * own request handling (the webhook; the wallet's fetch and answer): the
 * returned function hands them the app once it exists.
 */
function mountTestProviders(api: ReturnType<typeof mountDomains>, w: Wiring) {
  const { db, payments, age, accounts } = w
  let built: Hono | undefined
  const dispatch: Dispatch = async (url, init) => {
    if (!built) throw new Error('the app is not built yet')
    return built.request(url, init)
  }
  if (isLocal(payments))
    api.route('/', checkoutRoutes(db, payments, { trustProxy: accounts.trustProxy ?? false }))
  if (age.testWallet)
    api.route(
      '/',
      testWalletRoutes(db, age, accounts, () => dispatch),
    )
  return (app: Hono) => {
    built = app
    // The local provider posts its webhook through the app's own request
    // handling: the same route, form and answer as a delivery from Mollie.
    if (isLocal(payments))
      payments.deliverWith(async (url, id) => {
        const res = await app.request(url, {
          method: 'POST',
          headers: {
            host: new URL(url).host,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ id }).toString(),
        })
        if (!res.ok) throw new Error(`webhook answered ${res.status}`)
      })
  }
}

/** The domains' job kinds on the runner, and the mailer's pokes to it. */
function registerJobs({ db, accounts, jobs, payments, store }: Wiring) {
  const providerDeps = () => ({
    provider: payments,
    base: accounts.publicUrl ?? `http://localhost:${process.env.PORT ?? 3000}`,
  })
  jobs.register(mailJobs(db, accounts.mailer))
  jobs.register(messageMailJobHandlers(db, accounts.mailer))
  jobs.register(paymentJobs(db, providerDeps))
  jobs.register(withdrawalJobs(db, providerDeps))
  jobs.register(transparencyJobs(db, () => transparencyFromEnv()))
  jobs.register(mediaJobHandlers(store))
  // A face seen on a banned account is flagged first (the moderation domain's rule).
  jobs.register(faceJobHandlers(db, store, { bannedSql: bannedMemberSql }))
  // A new profile photo's face against other accounts' kept faces: images
  // asks, verification (which keeps them) answers, a banned account's first.
  jobs.register(photoFaceJobHandlers(db, store, photoFaceCheck(db, bannedMemberSql)))
  accounts.mailer.attach(jobs)
}

/** What every /api request passes before its domain's route. */
function apiMiddleware({ now, accounts, reads }: Wiring) {
  const api = new Hono<ClockEnv>()
  // A session that writes reads the primary for a moment (read-your-writes).
  if (reads) api.use(rememberWrites(reads, GET_WITH_EFFECTS))
  return (
    api
      .use(async (c, next) => {
        if (now) c.set('now', now)
        await next()
      })
      .use(jsonAsBytes)
      .use(async (c, next) => {
        // A HEAD runs the GET's handler (Hono, as HTTP allows): never for a GET
        // with effects (api/contract/endpoints.ts `effects`).
        if (c.req.method === 'HEAD' && GET_WITH_EFFECTS.has(c.req.path)) {
          c.header('Allow', 'GET')
          return c.body(null, 405)
        }
        await next()
      })
      .use(sameOriginOnly({ trustProxy: accounts.trustProxy }))
      // JSON bodies are small; the limit stops a client from making the server
      // buffer megabytes. Multipart only for the picture upload (its own limit);
      // any other kind of body is a 415 before it is read (api/http/body.ts).
      .use(bodyGate)
      .use(async (c, next) => {
        await next()
        // Member data never sits in a shared or browser HTTP cache; offline
        // copies live in the member's IndexedDB and are wiped on logout. Set on
        // the answer's own headers: c.header() after the answer exists would
        // rebuild it as a stream (api/http/answer-bytes.ts). A voice recording
        // keeps its own 'private, no-cache' (api/images/voice.ts answerVoice):
        // revalidated on every play, so the listener check still decides.
        if (!c.res.headers.get('Cache-Control')?.startsWith('private'))
          c.res.headers.set('Cache-Control', 'no-store')
      })
      // The polled reads of spec §9 (and the visitors, polled with the likes) answer 304 without a body when nothing
      // changed since the ETag the worker sends (sync/core/http.ts): an idle
      // member's poll costs headers only.
      .use(pathOf(endpoints.user), etag())
      .use(pathOf(endpoints.chats), etag())
      .use(pathOf(endpoints.likes), etag())
      .use(pathOf(endpoints.visitors), etag())
  )
}

/** Every domain's routes, mounted from its entry. */
function mountDomains(api: ReturnType<typeof apiMiddleware>, w: Wiring) {
  const { db, accounts, store, jobs, events, memberLimits, eventsTiming, complaintsTo, now } = w
  const { sendGathering } = w
  const { readsFor } = w
  const { cams, age, payments } = w
  return api
    .route('/', authRoutes(db, accounts))
    .route('/', userRoutes(db, accounts, { pictures: store, jobs }))
    .route('/', exportRoutes(db, accounts, store))
    .route('/', accountRoutes(db, accounts))
    .route(
      '/',
      imageRoutes(db, store, {
        trustProxy: accounts.trustProxy ?? false,
        jobs,
        bannedSql: bannedMemberSql,
      }),
    )
    .route('/', verificationRoutes(db, store, jobs))
    .route('/', referenceRoutes(db, accounts))
    .route('/', profileFieldRoutes(db))
    .route('/', devMailRoutes(db, accounts.mailer))
    .route('/', searchRoutes(db, accounts.trustProxy ?? false, readsFor))
    .route('/', chatsRoutes(db))
    .route('/', activityRoutes(db))
    .route('/', settingsRoutes(db, accounts.trustProxy ?? false))
    .route('/', giftRoutes(db, accounts.trustProxy ?? false))
    .route('/', sessionRoutes(db))
    .route('/', likesRoutes(db, { memberLimits, jobs, readsFor }))
    .route(
      '/',
      profileRoutes(db, {
        viewed: (viewer, profile) => recordVisit(db, viewer, profile),
        relation: (reader, viewer, profile) => likeFlags(reader, viewer, profile),
        readsFor,
      }),
    )
    .route('/', presenceRoutes(db))
    .route('/', chatRoutes(db))
    .route('/', photoRoutes(db, store, { accounts, jobs }))
    .route('/', giftSendRoutes(db, { accounts, jobs }))
    .route('/', voiceRoutes(db, store, { accounts, jobs }))
    .route(
      '/',
      messageRoutes(db, {
        events,
        accounts,
        complaintsTo,
        dev: accounts.development ?? false,
        jobs,
        memberLimits,
        sendGathering,
        ...(eventsTiming ? { eventsTiming } : {}),
        ...(now ? { now } : {}),
      }),
    )
    .route('/', camsRoutes(db, cams))
    .route('/', trafficRoutes(db, accounts.trustProxy ?? false))
    .route('/', complaintRoutes(db, accounts, complaintsTo))
    .route('/', appealRoutes(db, accounts))
    .route('/', paymentsRoutes(db, { provider: payments, accounts, jobs }))
    .route('/', withdrawalRoutes(db, { accounts, jobs }))
    .route('/', ageRoutes(db, age, accounts))
    .route('/', pushRoutes(db, { badgeOf, jobs }))
    .route('/', operatorRoutes({ db, accounts, jobs, payments, events, pictures: store }))
}

export type Api = ReturnType<typeof createApi>
