// `npm start`: build the client if needed, open the database (migrations run
// on open), seed demo data on first start, and serve everything on one port.
// The port answers at once: until the site is ready with a page that shows
// the progress (api/site/start-page.ts), so a first start is never silent.
// Only light modules load before the port opens; the rest is imported after.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import type { Server } from 'node:http'
import { createInterface } from 'node:readline'
import { serve } from '@hono/node-server'
import { ageTestWalletBanner, loadConfig, paymentsBanner, storageBanner } from './config.ts'
import { createLifecycle, shutdownGraceMs, stopOnSignal, trackRequests } from './http/drain.ts'
import { startProgress } from './site/start-page.ts'

const DIST = 'dist'
const config = loadConfig()
// SIGTERM's grace period for requests in flight (api/http/drain.ts); a bad value stops here.
const graceMs = shutdownGraceMs()
const STEP = { build: 0, database: 1, seed: 2 } as const
const progress = startProgress([
  'Build the app (vite build)',
  'Open the database and apply migrations',
  'Create the demo members and their photos',
])

// `env` carries the connection (@hono/node-server's { incoming, outgoing }):
// the rate limits key on the client's address from it (api/http/ratelimit.ts
// clientIp). Without it every client was "unknown", one bucket for the
// whole site (e2e/production-start.e2e.ts runs this entry).
type Handler = (req: Request, env: unknown) => Response | Promise<Response>
let handler: Handler = (req) => progress.fetch(req)
const server = serve(
  { fetch: (req, env) => handler(req, env), port: config.port, hostname: config.host },
  (info) =>
    console.log(`start: port ${info.port} open (a progress page answers until the site is ready)`),
)

/** `vite build` as a child process, its output shown on the progress page and the terminal. */
function build(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['node_modules/vite/bin/vite.js', 'build'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        console.log(line)
        // Colour codes of vite's logger are not for a web page.
        // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes
        progress.detail(STEP.build, line.replace(/\x1b\[[0-9;]*m/g, ''))
      })
    }
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`vite build exited with ${code}`)),
    )
  })
}

async function step<T>(i: number, run: () => Promise<T>): Promise<T> {
  progress.begin(i)
  try {
    const value = await run()
    progress.end(i)
    return value
  } catch (e) {
    progress.end(i, 'failed')
    progress.detail(i, String(e))
    throw e
  }
}

// The server's mail and push texts are the compiled Paraglide messages
// (messages/paraglide/, not in git): a build makes them, and so does this
// when a build exists without them.
if (existsSync(`${DIST}/index.html`) && !existsSync('messages/paraglide/runtime.js')) {
  console.log('start: compiling the translations (npm run i18n) ...')
  const compiled = spawnSync(process.execPath, ['--import', 'tsx', 'messages/compile.ts'], {
    stdio: 'inherit',
  })
  if (compiled.status !== 0) throw new Error('start: the translations did not compile')
}

if (existsSync(`${DIST}/index.html`)) {
  progress.detail(STEP.build, 'built before')
  progress.end(STEP.build)
} else {
  console.log('start: no client build yet, running vite build ...')
  await step(STEP.build, build)
}

const [
  { openDatabase },
  { seedDemo },
  { accountsFromEnv },
  { hashPassword },
  { createEventBus },
  { createJobRunner },
  { isPublicPushEndpoint },
  { pushEventJobHandlers },
  { pushJobHandlers },
  { createPushSender, vapidSubject },
  { vapidKeys },
  { createServer },
  { applySettingsFromEnv },
  { storeOf },
  { badgeOf },
  { replicaReads },
  { stopFaceWorker },
] = await Promise.all([
  import('../db/client.ts'),
  import('../db/seed/seed.ts'),
  import('./mail/site.ts'),
  import('./accounts/password.ts'),
  import('./events/bus.ts'),
  import('./jobs/queue.ts'),
  import('./push/endpoint-check.ts'),
  import('./push/events.ts'),
  import('./push/job.ts'),
  import('./push/sender.ts'),
  import('./settings/vapid.ts'),
  import('./server.ts'),
  import('./settings/settings.ts'),
  import('./images/storage.ts'),
  import('./badge.ts'),
  import('../db/replica.ts'),
  import('./verification/index.ts'),
])
// Where pictures are kept: a directory, or an S3 bucket every process shares.
const pictures = storeOf(config.storage)
console.log(storageBanner(config.storage))
const { ensureDemoStaff, ensureFirstAdmin } = await import('./operator/first-start.ts')

const database = await step(STEP.database, async () => {
  const opened = await openDatabase(config.database)
  const applied = await applySettingsFromEnv(opened.db, process.env.SITE_SETTINGS)
  if (applied.length > 0) console.log(`start: settings from SITE_SETTINGS: ${applied.join(', ')}`)
  console.log(`start: database ${opened.kind} ready (migrations applied)`)
  return opened
})

// The read-only hot paths on a streaming replica, when one is configured
// (db/replica.ts, docs/several-machines.md "Reads on a replica").
const reads = config.replica ? replicaReads(database.db, config.replica) : undefined
if (config.replica) {
  console.log(
    `start: reads of search, profiles and likes lists on the replica while under ${config.replica.maxLagMs} ms behind`,
  )
}

if (config.demoSeed) {
  await step(STEP.seed, async () => {
    const t0 = Date.now()
    const result = await seedDemo(database.db, {
      pictures,
      members: config.demoMembers,
      avatarCache: config.demoAvatarCache,
      hashPassword,
      log: (line) => {
        console.log(line)
        progress.detail(STEP.seed, line)
      },
      // A second login (paid, Belgium) to see one member's likes from the other side.
      secondDemo: true,
    })
    console.log(`start: demo data ready (${result.members} members, ${Date.now() - t0} ms)`)
    console.log('start: demo login  demo@example.com / demopassword  (DEMO_SEED=off disables)')
    console.log('start: second demo login  demo2@example.com / demopassword  (paid, Belgium)')
    await ensureDemoStaff(database.db, console.log, 'Operator console (demo)')
  })
} else {
  progress.detail(STEP.seed, 'DEMO_SEED=off')
  progress.end(STEP.seed)
}

await ensureFirstAdmin(
  database.db,
  process.env.OPERATOR_EMAIL ?? 'admin@localhost',
  console.log,
  `Operator console ${config.accounts.publicUrl ? new URL(config.accounts.publicUrl).host : ''}`.trim(),
)

if (!config.accounts.publicUrl && config.accounts.siteHosts.length === 0 && !config.demoSeed) {
  console.warn(
    'start: neither PUBLIC_URL nor SITE_HOSTS is set: mails are sent only for requests to localhost',
  )
}
if (config.accounts.devMail) {
  console.warn(
    "start: WARNING DEV_MAIL=all: every stored mail, with other members' links, is listed at /_dev/mail to anyone — development only",
  )
} else if (!config.accounts.smtpUrl) {
  console.log(
    'start: no SMTP_URL: mails are stored; a signed-in member sees their own at /_dev/mail (DEV_MAIL=all lists every mail, development only)',
  )
}
if (config.serve.publicSourceMaps) {
  console.log('start: SOURCE_MAPS=public: the source maps of the build are served')
}
console.log(paymentsBanner(config.payments))
const ageBanner = ageTestWalletBanner(config.ageTestWallet)
if (ageBanner) console.warn(ageBanner)
const accounts = accountsFromEnv()
// Every API process runs the job queue: it polls for due jobs (retries, work
// another process enqueued) and runs at once what this process enqueues.
const jobs = createJobRunner({ db: database.db, handlers: {} })
// Live pokes: this process LISTENs and feeds its own members' streams.
const events = createEventBus(database.listen)
// Listen from the start, streams or not: cached values (the message cost) are
// dropped through it when another process changes them. A failure is retried.
void events.ready().catch(() => undefined)
// Push notifications go out as jobs of the queue (api/push/job.ts).
const pushSender = createPushSender({
  vapid: await vapidKeys(database.db),
  subject: vapidSubject(),
  allowHttpOrigins: accounts.pushHttpOrigins ?? [],
})
jobs.register(
  pushJobHandlers(database.db, {
    sender: pushSender,
    // Trusted push services (PUSH_HTTP_ORIGINS) skip the public-address check.
    checkEndpoint: (endpoint) =>
      (accounts.pushHttpOrigins ?? []).includes(new URL(endpoint).origin) ||
      isPublicPushEndpoint(endpoint),
  }),
)
// A sent message enqueues a push event in its own statement; it becomes the push job.
jobs.register(pushEventJobHandlers(database.db, badgeOf))

// Whether the process is stopping: GET /readyz answers 503 then.
const lifecycle = createLifecycle()
handler = createServer({
  db: database.db,
  ...(reads ? { reads } : {}),
  distDir: DIST,
  pictures,
  accounts,
  jobs,
  events,
  lifecycle,
  sendGathering: config.sendGathering,
  publicSourceMaps: config.serve.publicSourceMaps,
}).fetch
// The e2e harness and scripts wait for this line: the real site answers now.
console.log(`start: listening on http://localhost:${config.port}`)
jobs.start()
jobs.poke()

// A graceful stop (api/http/drain.ts, docs/several-machines.md): /readyz 503
// at once, event streams end, no new connections, requests in flight finish
// (SHUTDOWN_GRACE_S), the job running finishes, then the database closes.
const shutdown = stopOnSignal({
  http: trackRequests(server as Server),
  lifecycle,
  events,
  jobs,
  database: {
    close: async () => {
      // The job running has finished: the face worker's thread ends (api/verification/face-match.ts).
      await stopFaceWorker()
      await reads?.close()
      await database.close()
    },
  },
  graceMs,
})
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
