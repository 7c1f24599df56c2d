// `npm start`: build the client if needed, open the database (migrations run
// on open), seed demo data on first start, and serve everything on one port.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { serve } from '@hono/node-server'
import { openDatabase } from '../db/client.ts'
import { seedDemo } from '../db/seed/seed.ts'
import { accountsFromEnv } from './accounts/deps.ts'
import { hashPassword } from './accounts/password.ts'
import { loadConfig } from './config.ts'
import { createEventBus } from './events/bus.ts'
import { createJobRunner } from './jobs/queue.ts'
import { isPublicPushEndpoint } from './push/endpoint-check.ts'
import { pushJobHandlers } from './push/job.ts'
import { createPushSender, vapidSubject } from './push/sender.ts'
import { vapidKeys } from './push/vapid.ts'
import { createServer } from './server.ts'
import { applySettingsFromEnv } from './settings/settings.ts'

const DIST = 'dist'
const config = loadConfig()

if (!existsSync(`${DIST}/index.html`)) {
  console.log('start: no client build yet, running vite build ...')
  execFileSync('npx', ['vite', 'build'], { stdio: 'inherit' })
}

const database = await openDatabase(config.database)
const applied = await applySettingsFromEnv(database.db, process.env.SITE_SETTINGS)
if (applied.length > 0) console.log(`start: settings from SITE_SETTINGS: ${applied.join(', ')}`)
console.log(`start: database ${database.kind} ready (migrations applied)`)

if (config.demoSeed) {
  const t0 = Date.now()
  const result = await seedDemo(database.db, {
    mediaDir: config.mediaDir,
    members: config.demoMembers,
    hashPassword,
    log: (line) => console.log(line),
    // A second login (paid, Belgium) to see one member's likes from the other side.
    secondDemo: true,
  })
  console.log(`start: demo data ready (${result.members} members, ${Date.now() - t0} ms)`)
  console.log('start: demo login  demo@example.com / demopassword  (DEMO_SEED=off disables)')
  console.log('start: second demo login  demo2@example.com / demopassword  (paid, Belgium)')
}

if (!config.accounts.publicUrl && config.accounts.siteHosts.length === 0 && !config.demoSeed) {
  console.warn(
    'start: neither PUBLIC_URL nor SITE_HOSTS is set: mails are sent only for requests to localhost',
  )
}
if (!config.accounts.smtpUrl) {
  console.log(
    config.accounts.devMail
      ? 'start: no SMTP_URL: mails are stored and listed at /_dev/mail'
      : 'start: no SMTP_URL: mails are stored only (DEV_MAIL is off)',
  )
}
const accounts = accountsFromEnv()
// Every API process runs the job queue: it polls for due jobs (retries, work
// another process enqueued) and runs at once what this process enqueues.
const jobs = createJobRunner({ db: database.db, handlers: {} })
// Live pokes: this process LISTENs and feeds its own members' streams.
const events = createEventBus(database.listen)
// Push notifications go out as jobs of the queue (api/push/job.ts).
const pushSender = createPushSender({
  vapid: await vapidKeys(database.db),
  subject: vapidSubject(),
})
jobs.register(
  pushJobHandlers(database.db, { sender: pushSender, checkEndpoint: isPublicPushEndpoint }),
)

const server = serve(
  {
    fetch: createServer({
      db: database.db,
      distDir: DIST,
      mediaDir: config.mediaDir,
      accounts,
      jobs,
      events,
    }).fetch,
    port: config.port,
    hostname: config.host,
  },
  (info) => console.log(`start: listening on http://localhost:${info.port}`),
)
jobs.start()
jobs.poke()

const shutdown = () => {
  // Jobs that are running (a mail being sent) finish before the database closes;
  // queued ones wait in the table for the next start.
  server.close(
    () =>
      void jobs
        .stop()
        .then(() => events.close())
        .then(() => database.close())
        .then(() => process.exit(0)),
  )
  // Live event streams never end by themselves: close them so close() can finish.
  ;(server as { closeAllConnections?: () => void }).closeAllConnections?.()
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
