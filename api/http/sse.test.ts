// The live event stream written to Node's response directly (api/http/sse.ts,
// api/http/live-streams.ts), over a real node server as `npm start` serves
// it: the same head as hono's streamSSE gave (pinned literally), the same
// events, HEAD without a stream, and every trace of a stream gone when its
// client goes or stops reading. The keep-alive ticker's slices.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { createApi } from '../app.ts'
import { createEventBus, type EventBus, memberChannel, notifyMembers } from '../events/bus.ts'
import { createMailer } from '../mail/mailer.ts'
import { createServer } from '../server.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { keepAliveTicker, MAX_UNREAD_BYTES } from './live-streams.ts'
import { ALREADY_SENT } from './sse.ts'

/** The head of GET /api/events.php before and after the direct write (Date and X-Request-Id aside). */
const STREAM_HEAD: [string, string][] = [
  ['cache-control', 'no-store'],
  ['connection', 'keep-alive'],
  [
    'content-security-policy',
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; font-src 'self' data:; connect-src 'self'; media-src 'self' blob: data:; manifest-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  ],
  ['content-type', 'text/event-stream'],
  [
    'permissions-policy',
    'camera=(self), microphone=(self), geolocation=(self), payment=(), usb=(), serial=(), bluetooth=(), midi=(), browsing-topics=()',
  ],
  ['referrer-policy', 'strict-origin-when-cross-origin'],
  ['transfer-encoding', 'chunked'],
  ['x-accel-buffering', 'no'],
  ['x-content-type-options', 'nosniff'],
]

/** One request's answer read as it comes, with bounded waits. */
function request(port: number, method: string, headers: Record<string, string>) {
  return new Promise<{
    res: http.IncomingMessage
    seen: () => string
    until: (needle: string) => Promise<void>
    ended: () => Promise<void>
    close: () => void
  }>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/api/events.php', method, headers, agent: false },
      (res) => {
        let seen = ''
        let end = false
        const waiters = new Set<() => void>()
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          seen += chunk
          for (const w of waiters) w()
        })
        res.on('end', () => {
          end = true
          for (const w of waiters) w()
        })
        const wait = (what: string, done: () => boolean) =>
          new Promise<void>((ok, fail) => {
            const timer = setTimeout(() => {
              waiters.delete(check)
              fail(new Error(`waited 10 s for ${what}; the stream sent ${JSON.stringify(seen)}`))
            }, 10_000)
            const check = () => {
              if (!done()) return
              clearTimeout(timer)
              waiters.delete(check)
              ok()
            }
            waiters.add(check)
            check()
          })
        resolve({
          res,
          seen: () => seen,
          until: (needle) => wait(JSON.stringify(needle), () => seen.includes(needle)),
          ended: () => wait('the end of the stream', () => end),
          close: () => req.destroy(),
        })
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/** Waits until `ok()` holds, checking every 10 ms, for at most 10 s. */
async function eventually(what: string, ok: () => boolean) {
  const deadline = Date.now() + 10_000
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`waited 10 s for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

const headOf = (res: http.IncomingMessage) =>
  Object.entries(res.headers)
    .filter(([name]) => name !== 'date' && name !== 'x-request-id')
    .map(([name, value]) => [name, String(value)])
    .sort(([a], [b]) => a!.localeCompare(b!))

describe('the direct answer', () => {
  it("is @hono/node-server's: its already-sent Response carries the header sse.ts sets", () => {
    expect(ALREADY_SENT).toBe('x-hono-already-sent')
    expect([...RESPONSE_ALREADY_SENT.headers.keys()]).toEqual([ALREADY_SENT])
  })
})

describe('the keep-alive ticker', () => {
  it('cuts 15 s in 15 slices of 1 s, and a short period in one', () => {
    expect(keepAliveTicker(15_000)).toMatchObject({ slices: 15, tickMs: 1000 })
    expect(keepAliveTicker(20)).toMatchObject({ slices: 1, tickMs: 20 })
  })

  it('gives a stream its first keep-alive within one period, then one every period, and one interval stops with the last stream', () => {
    vi.useFakeTimers()
    onTestFinished(() => {
      vi.useRealTimers()
    })
    const ticker = keepAliveTicker<{ keepAlive(): void }>(15_000)
    const first: number[] = []
    const second: number[] = []
    const t0 = Date.now()
    const stream = { keepAlive: () => first.push(Date.now() - t0) }
    const slice = ticker.add(stream)
    // Another stream, joining half-way through a slice, lands in the slice walked last.
    vi.advanceTimersByTime(1_500)
    const other = { keepAlive: () => second.push(Date.now() - t0 - 1_500) }
    const otherSlice = ticker.add(other)
    expect(otherSlice).toBe(slice + 1)
    vi.advanceTimersByTime(44_500)
    expect(first).toEqual([15_000, 30_000, 45_000])
    expect(second).toEqual([14_500, 29_500, 44_500])
    ticker.remove(stream, slice)
    ticker.remove(other, otherSlice)
    expect(ticker.size).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
  })
})

describeEngines('the event stream over a node server on %s', (engine) => {
  let database: TestDatabase
  let events: EventBus
  let port: number
  let server: ReturnType<typeof serve>
  let cookie: string
  let memberId: number
  beforeAll(async () => {
    database = await freshDatabase(engine)
    events = createEventBus(database.listen)
    const app = createServer({
      db: database.db,
      distDir: '/nonexistent-dist',
      mediaDir: '/nonexistent-media',
      events,
      accounts: { mailer: createMailer({ devListing: false }), trustProxy: false },
    })
    const member = await addMember(database.db)
    memberId = member.id
    cookie = await login(createApi({ db: database.db }), member.email, TEST_PASSWORD)
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
    await new Promise((r) => server.once('listening', r))
    port = (server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await new Promise((r) => server?.close(r))
    await events?.close()
    await database?.close()
  })

  it("answers with streamSSE's head, then ready, a sync for a returning client, and pokes", async () => {
    const s = await request(port, 'GET', { cookie, 'last-event-id': '7' })
    onTestFinished(() => s.close())
    expect(s.res.statusCode).toBe(200)
    expect(headOf(s.res)).toEqual(STREAM_HEAD)
    expect(s.res.headers['x-request-id']).toMatch(/^[\w.:-]{1,128}$/)
    await s.until('id: 1\n\n')
    expect(s.seen()).toBe(
      'event: ready\ndata: \nretry: 3000\n\nevent: poke\ndata: {"type":"sync"}\nid: 1\n\n',
    )
    // A poke through the bus, as a commit's NOTIFY brings it.
    await notifyMembers(database.db, [memberId], { type: 'messages', conversation: 3 })
    await s.until('id: 2\n\n')
    expect(s.seen()).toContain('event: poke\ndata: {"type":"messages","conversation":3}\nid: 2\n\n')
  })

  it('answers a HEAD with the same head and no stream', async () => {
    await eventually('the streams of the tests before to end', () => events.streams === 0)
    const before = events.streams
    const s = await request(port, 'HEAD', { cookie })
    expect(s.res.statusCode).toBe(200)
    expect(headOf(s.res)).toEqual(STREAM_HEAD)
    await s.ended()
    expect(events.streams).toBe(before)
  })

  it('a 403 without a session is an ordinary answer', async () => {
    const s = await request(port, 'GET', {})
    expect(s.res.statusCode).toBe(403)
    await s.ended()
  })

  it('leaves the bus when the client goes', async () => {
    await eventually('the streams of the tests before to end', () => events.streams === 0)
    const before = events.streams
    const s = await request(port, 'GET', { cookie })
    await s.until('event: ready')
    expect(events.streams).toBe(before + 1)
    s.close()
    await eventually('the stream to leave the bus', () => events.streams === before)
  })
})

describeEngines('a client that stops reading, on %s', (engine) => {
  it(`is ended once more than ${MAX_UNREAD_BYTES} bytes wait for it, not buffered for without bound`, async () => {
    expect(MAX_UNREAD_BYTES).toBe(65_536)
    const database = await freshDatabase(engine)
    onTestFinished(() => database.close())
    // A bus whose pokes the test sends itself (no PostgreSQL NOTIFY in between).
    let deliver: (payload: string, channel: string) => void = () => {}
    const events = createEventBus(async (_channels, onPayload) => {
      deliver = onPayload
      return { change: async () => {}, stop: async () => {} }
    })
    onTestFinished(() => events.close())
    const app = createApi({ db: database.db, events })
    const member = await addMember(database.db)
    const cookie = await login(app, member.email, TEST_PASSWORD)
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
    onTestFinished(() => new Promise<void>((r) => server.close(() => r())))
    await new Promise((r) => server.once('listening', r))
    const s = await request((server.address() as AddressInfo).port, 'GET', { cookie })
    onTestFinished(() => s.close())
    await s.until('event: ready')
    s.res.pause()
    // 60 KB pokes until the socket's buffers are full and the server gives up.
    const big = 'x'.repeat(60_000)
    for (let i = 0; i < 2_000 && events.streams > 0; i++) {
      deliver(JSON.stringify({ type: 'messages', pad: big }), memberChannel(member.id))
      if (i % 20 === 19) await new Promise((r) => setImmediate(r))
    }
    expect(events.streams).toBe(0)
  })
})
