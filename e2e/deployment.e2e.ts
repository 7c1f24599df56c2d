// The deployment of docs/several-machines.md, run for real: three app
// processes (api/start.ts under node, as the container starts it) on ONE
// empty PostgreSQL database and one S3 bucket (s3rver), started at the same moment, behind Debian's
// HAProxy running the repository's own deploy/haproxy.cfg (the file
// compose.yaml mounts; only addresses differ, from the environment). Through
// the balancer: a member signs up, their picture is served by every process, a message reaches a stream held by
// another process, delivery resumes after PostgreSQL ends every LISTEN
// connection, and one process stopped with SIGTERM under traffic loses no
// request. Needs DATABASE_URL (a server on which it may create databases)
// and /usr/sbin/haproxy (.ci/run installs it); skipped, saying which, without.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { Agent, request } from 'node:http'
import pg from 'pg'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { endpoints } from '../api/contract/endpoints.ts'
import { emptyPostgresDatabase } from '../api/test/databases.ts'
import { type EventStreamReader, eventStream } from '../api/test/event-stream.ts'
import { startS3 } from '../api/test/s3.ts'
import { scaled } from '../api/test/time-scale.ts'
import { LISTEN_APPLICATION_NAME } from '../db/listen.ts'
import {
  callJson as call,
  sessionCookieOf as cookieOf,
  DEMO,
  freePort,
  type Site,
  startSite,
  until,
} from './harness.ts'

const ROOT = new URL('..', import.meta.url).pathname
const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy'
const HAPROXY_CFG = `${ROOT}deploy/haproxy.cfg`
/** Concurrent requests through the balancer while one process stops. */
const CONCURRENT = 60
/** Upper bounds of waits on conditions (a busy 2-core machine); never a fixed pause. */
const WAIT_MS = scaled(60_000)

const missing = [
  process.env.DATABASE_URL ? '' : 'set DATABASE_URL to run it',
  existsSync(HAPROXY) ? '' : `no ${HAPROXY}: apt-get install haproxy`,
].filter(Boolean)
const suite = missing.length === 0 ? describe : describe.skip

interface Balancer {
  url: string
  statsUrl: string
  output(): string
  stop(): Promise<void>
}

/** Debian's haproxy in the foreground (-db) on deploy/haproxy.cfg, in front of `apps`. */
async function startHaproxy(apps: string[]): Promise<Balancer> {
  const [port, statsPort] = [await freePort(), await freePort()]
  const env: Record<string, string> = {
    HAPROXY_BIND: `127.0.0.1:${port}`,
    HAPROXY_STATS_BIND: `127.0.0.1:${statsPort}`,
  }
  apps.forEach((app, i) => {
    env[`APP${i + 1}_ADDR`] = app
  })
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', HAPROXY_CFG], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  for (const s of [child.stdout, child.stderr])
    s?.on('data', (c: Buffer) => {
      log = (log + c.toString()).slice(-20_000)
    })
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  return {
    url: `http://127.0.0.1:${port}`,
    statsUrl: `http://127.0.0.1:${statsPort}/stats;csv`,
    output: () => log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        await exited
      }
    },
  }
}

/** The state (UP, DOWN, …) of each server of the balancer's `app` backend, from its stats CSV. */
async function serverStates(balancer: Balancer): Promise<Record<string, string>> {
  const csv = await (await fetch(balancer.statsUrl)).text()
  const [head, ...rows] = csv.replace(/^# /, '').trim().split('\n')
  const cols = head!.split(',')
  const at = (name: string) => cols.indexOf(name)
  const states: Record<string, string> = {}
  for (const row of rows) {
    const f = row.split(',')
    if (f[at('pxname')] === 'app' && /^app\d$/.test(f[at('svname')] ?? ''))
      states[f[at('svname')]!] = f[at('status')]!
  }
  return states
}

/** The answer of one GET on a keep-alive connection of `agent`: a status or a transport error. */
function get(
  agent: Agent,
  url: string,
  cookie: string,
): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const req = request(url, { agent, headers: { cookie } })
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }))
    req.on('response', (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }))
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }))
    })
    req.end()
  })
}

suite(`deployment: three processes behind HAProxy on one PostgreSQL${missing.length ? ` (${missing.join('; ')})` : ''}`, () => {
  let database: { url: string; drop(): Promise<void> }
  /** The one object store of all three processes (s3rver, a real S3-protocol server). */
  let s3: Awaited<ReturnType<typeof startS3>> | undefined
  let sites: Site[] = []
  let balancer: Balancer | undefined
  /** The member who signs up through the balancer, and the demo member who writes to them. */
  let newcomer: { cookie: string; id: number }
  let demoCookie: string
  let conversation: number

  beforeAll(async () => {
    database = await emptyPostgresDatabase()
    s3 = await startS3()
    const ports = [await freePort(), await freePort(), await freePort()]
    const balancerPort = await freePort()
    // Started in the same tick: all three reach the empty database together
    // (migrations and the demo seed under the start-up lock).
    sites = await Promise.all(
      ports.map((port) =>
        startSite({
          ...s3!.env,
          PORT: String(port),
          DATABASE_URL: database.url,
          DEMO_SEED: 'on',
          DEMO_MEMBERS: '20',
          TRUST_PROXY: '1',
          SHUTDOWN_GRACE_S: '60',
          // Links in mails name the balancer, as PUBLIC_URL would in production.
          SITE_HOSTS: `127.0.0.1:${balancerPort},127.0.0.1`,
        }),
      ),
    )
    balancer = await startHaproxy(ports.map((p) => `127.0.0.1:${p}`))
    await until('HAProxy to see all three processes ready (/readyz 200)', async () => {
      const states = await serverStates(balancer!)
      return ['app1', 'app2', 'app3'].every((s) => states[s] === 'UP')
    })
  })
  afterAll(async () => {
    await balancer?.stop()
    await Promise.all(sites.map((s) => s.stop()))
    await database?.drop()
    await s3?.stop()
  })

  it('seeded the demo once although three processes started together on an empty database', () => {
    const said = sites.map((s) => s.output())
    expect(said.filter((o) => o.includes('seed: demo data already present'))).toHaveLength(2)
  })

  it('signs a member up through the balancer; the session works on every process', async () => {
    const email = `deploy-${randomUUID().slice(0, 8)}@example.com`
    const res = await call(balancer!.url, 'POST', `${endpoints.signup.path}?new=1`, undefined, {
      email,
      name: 'Dana',
      password: 'a long enough secret',
      timezone: 'Europe/Amsterdam',
      country: 'NL',
      language: 'en',
    })
    expect(res.status, await res.clone().text()).toBe(200)
    const cookie = cookieOf(res)
    expect(cookie).toMatch(/^sid=/)
    // The session row is in the one database: each process knows the member.
    const ids = await Promise.all(
      sites.map(async (site) => {
        const me = await call(site.url, 'GET', endpoints.user.path, cookie)
        expect(me.status).toBe(200)
        return ((await me.json()) as { profile: { id: number } }).profile.id
      }),
    )
    expect(new Set(ids).size).toBe(1)
    newcomer = { cookie: cookie!, id: ids[0]! }

    const login = await call(balancer!.url, 'POST', endpoints.login.path, undefined, DEMO)
    expect(login.status, await login.clone().text()).toBe(200)
    demoCookie = cookieOf(login)!
    const chat = await call(
      balancer!.url,
      'GET',
      `${endpoints.chatStart.path}?profile=${newcomer.id}`,
      demoCookie,
    )
    expect(chat.status, await chat.clone().text()).toBe(200)
    conversation = ((await chat.json()) as { id: number }).id
  })

  it('stores a picture uploaded through the balancer in the bucket, and every process serves it', async () => {
    const jpeg = await sharp({
      create: { width: 320, height: 240, channels: 3, background: '#b03a6f' },
    })
      .jpeg()
      .toBuffer()
    const form = new FormData()
    form.append('file', new File([new Uint8Array(jpeg)], 'me.jpg', { type: 'image/jpeg' }))
    const res = await fetch(new URL(endpoints.uploadImages.path, balancer!.url), {
      method: 'POST',
      headers: { origin: balancer!.url, cookie: newcomer.cookie },
      body: form,
    })
    expect(res.status, await res.clone().text()).toBe(200)
    const { images } = (await res.json()) as { images: { thumb_filename: string }[] }
    expect(images).toHaveLength(1)
    // No process keeps it on its own disk: each one reads it from the bucket.
    for (const name of [images[0]!.thumb_filename]) {
      const bodies = await Promise.all(
        sites.map(async (site) => {
          const got = await fetch(new URL(`/media/${name}`, site.url))
          expect(got.status, `${name} from ${site.url}`).toBe(200)
          expect(got.headers.get('content-type')).toBe('image/jpeg')
          return Buffer.from(await got.arrayBuffer())
        }),
      )
      expect(bodies[1]!.equals(bodies[0]!) && bodies[2]!.equals(bodies[0]!)).toBe(true)
    }
    for (const site of sites) expect(site.output()).toContain('pictures in S3 bucket')
  })

  /** The newcomer's event stream, held on one process directly (not through the balancer). */
  async function streamOn(site: Site): Promise<{ reader: EventStreamReader; close(): void }> {
    const abort = new AbortController()
    const res = await fetch(new URL(endpoints.events.path, site.url), {
      headers: { cookie: newcomer.cookie },
      signal: abort.signal,
    })
    expect(res.status).toBe(200)
    const reader = eventStream(res.body)
    await reader.untilText('event: ready', WAIT_MS)
    return { reader, close: () => abort.abort() }
  }

  /** Demo writes to the newcomer through `base`; the message's client id. */
  async function send(base: string, text: string): Promise<void> {
    const res = await call(base, 'POST', endpoints.sendMessage.path, demoCookie, {
      conversation,
      text,
      client_id: randomUUID(),
    })
    expect(res.status, await res.clone().text()).toBe(201)
  }

  const pokeFor = (seen: string) =>
    seen.includes('event: poke') && seen.includes(`"conversation":${conversation}`)

  it('delivers a message live to a stream held by another process', async () => {
    // The stream on process 2; one message through the balancer, one sent to process 1.
    const stream = await streamOn(sites[1]!)
    try {
      await send(balancer!.url, 'hello through the balancer')
      await stream.reader.until('the poke of a message sent through the balancer', pokeFor, WAIT_MS)
      const before = stream.reader.seen.length
      await send(sites[0]!.url, 'hello from process 1')
      await stream.reader.until(
        'the poke of a message sent to process 1, on process 2',
        (seen) => pokeFor(seen.slice(before)),
        WAIT_MS,
      )
    } finally {
      stream.close()
    }
  })

  it('resumes delivery after PostgreSQL ended every LISTEN connection', async () => {
    const stream = await streamOn(sites[1]!)
    const admin = new pg.Client({ connectionString: database.url })
    await admin.connect()
    try {
      const { rows } = await admin.query<{ ended: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = $1`,
        [LISTEN_APPLICATION_NAME],
      )
      expect(
        rows.filter((r) => r.ended),
        'one LISTEN connection per process',
      ).toHaveLength(3)
    } finally {
      await admin.end()
    }
    // The process ends its streams at once, so the client falls back to polling.
    await stream.reader.untilEnd(WAIT_MS)
    stream.close()
    // It listens again by itself (and says so on /readyz); a new stream gets its pokes.
    await until(
      'process 2 to answer /readyz 200 again',
      async () => (await fetch(new URL('/readyz', sites[1]!.url))).status === 200,
    )
    const again = await streamOn(sites[1]!)
    try {
      await send(balancer!.url, 'hello after the cut')
      await again.reader.until('the poke of a message sent after the cut', pokeFor, WAIT_MS)
    } finally {
      again.close()
    }
  })

  it('answers every request while one process stops with SIGTERM under traffic', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENT })
    const url = new URL(endpoints.credits.path, balancer!.url).href
    const answers: { status?: number; error?: string }[] = []
    let stopped = false
    let afterStop = 0
    // CONCURRENT clients, each sending its next request as soon as the last
    // is answered. Reads (the balance): HAProxy resends a read that a
    // stopping process closed without answering, never a write
    // (deploy/haproxy.cfg, disable-l7-retry), so a write sent at the instant
    // a kept-alive connection closes could fail; docs/several-machines.md.
    const load = Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        while (!stopped || afterStop < CONCURRENT * 2) {
          const answer = await get(agent, url, demoCookie)
          answers.push(answer)
          if (stopped) afterStop++
        }
      }),
    )
    await until('the traffic to be flowing', () => answers.length >= CONCURRENT * 2)
    const victim = sites[2]!
    const exit = victim.signal('SIGTERM')
    const how = await exit
    stopped = true
    await load
    agent.destroy()
    expect(how, victim.output().slice(-3000)).toEqual({ code: 0, signal: null })
    const bad = answers.filter((a) => a.status !== 200)
    expect(
      bad.slice(0, 10),
      `${bad.length} of ${answers.length} requests got no 200 (${victim.output().match(/shutdown: draining.*/)?.[0]}); haproxy:\n${balancer!.output().slice(-3000)}`,
    ).toEqual([])
    // HAProxy took the stopped process out (its /readyz said 503, then it refused).
    await until('HAProxy to mark the stopped process down', async () => {
      const states = await serverStates(balancer!)
      return states.app3 !== 'UP' && states.app1 === 'UP' && states.app2 === 'UP'
    })
  })
})
