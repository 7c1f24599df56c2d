// Idle traffic of a member's tab (the speed goal "Idle costs almost nothing: with
// the event stream an idle member's tab costs ≤ 0.5 KB a minute (≥ 30× below
// the old 16 KB); when the stream is down, polls are conditional"). Against
// the built site as `npm start` runs it (e2e/harness.ts: fresh PGlite, demo
// seed) in the system Chromium:
//   npm run build && node --import tsx bench/idle-traffic.ts [--minutes=6]
// The demo member logs in through the login form and opens /members; once the
// tab has settled, two windows are measured:
// - stream up: the sync worker holds the live event stream and the polls
//   pause; `--minutes` long (by default two periods of the page's visibility
//   report, VISIBLE_PING_MS: a shorter window shows it once or not at all).
// - stream down: the bench drops the stream's connection and answers its
//   reconnect 503 (as a proxy without the stream would), so the worker polls
//   user, chats and likes every POLL_MS (sync/core/timing.ts); at least two
//   poll periods long, so every poll shows up twice whatever the phase.
// Bytes are counted twice, independently:
// - per request, from the DevTools protocol of the page AND its workers (the
//   sync worker is a dedicated worker, the service worker another target;
//   Playwright's network events never give the bytes of a response that has
//   not finished, such as the event stream). Received: the response's
//   headers (responseReceived's encodedDataLength), then every
//   Network.dataReceived's encodedDataLength (the body as it came off the
//   socket, chunk framing included), then at loadingFinished whatever its
//   total has beyond those (nothing, normally): each byte once, including
//   those of a stream that never finishes. Sent: the request line, the
//   headers the network stack sent (requestWillBeSentExtraInfo, cookies
//   included) and the body, rebuilt as HTTP/1.1 text: an approximation.
//   A page request the service worker answered is not on the wire (the
//   service worker's own fetch, if any, is counted in its target).
// - on the wire: the browser talks to the site through a counting TCP proxy
//   in this process, which sees every byte both ways (TCP/IP overhead aside).
// Each window prints both counts, the requests by path and status, and its
// KB a minute by path, without the service worker's update check after the
// page load (SW_SCRIPTS). A benchmark, not a test: it prints the figures and
// never fails on one.
import { connect, createServer, type Server, type Socket } from 'node:net'
import { cpus, loadavg } from 'node:os'
import type { CDPSession, Page } from 'playwright-core'
import { endpoints } from '../api/contract/endpoints.ts'
import { VISIBLE_PING_MS } from '../api/contract/rules/visibility.ts'
import { launchBrowser, logIn, newContext, startSite } from '../e2e/harness.ts'
import { POLL_MS } from '../sync/core/timing.ts'

const arg = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const MINUTES = Number(arg('minutes') ?? (2 * VISIBLE_PING_MS) / 60_000)
const KB = 1024
/** The idle-traffic goal (docs/performance.md): an idle tab with the stream up, per minute. */
const GOAL_BYTES_PER_MIN = 0.5 * KB
/** What an idle tab cost per minute before the stream: the three full polls of the spec's old client. */
const OLD_BYTES_PER_MIN = 16 * KB
const EVENTS = endpoints.events.path
/**
 * The service worker's scripts (/sw.js imports /sw-push.js): Chromium
 * fetches them to check for an update some seconds after a navigation to a
 * page the worker controls. A cost of the page load, not of the minutes the
 * tab then stays idle, so the idle figure leaves it out (and says so). The
 * browser process fetches them: DevTools shows them in no target.
 */
const SW_SCRIPTS = ['/sw.js', '/sw-push.js']
/** The polls of spec §9 (sync/core/scheduler.ts), conditional by ETag (sync/core/http.ts). */
const POLLED: string[] = [endpoints.user.path, endpoints.chats.path, endpoints.likes.path]
const UP_MS = MINUTES * 60_000
/** Two poll periods and a margin: a window this long holds each poll at least twice. */
const DOWN_MS = Math.max(UP_MS, 2 * POLL_MS + 5_000)

/**
 * When the tab counts as settled (its first syncs done): at least `minMs`
 * after the start, then nothing started or finished for QUIET_MS, and never
 * longer than `maxMs`. The member area's first load (the syncs the stream's
 * `ready` starts, the service worker's precache of ~120 files, photos) is
 * over within seconds on this machine; 5 s of quiet is longer than any gap
 * between its steps (chats and likes start 1 s after login, the event
 * stream's retry is 3 s), and far shorter than the keep-alive's 15 s and a
 * poll's 60 s, which are what is measured.
 */
const QUIET_MS = 5_000

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const kb = (bytes: number) => (bytes / KB).toFixed(2)

// ---------------------------------------------------------------- the wire

/** One HTTP/1.1 exchange as the proxy saw it. */
interface Exchange {
  method: string
  path: string
  status?: number
  /** When its request line went out. */
  at: number
}

interface Conn {
  client: Socket
  server: Socket
  /** The exchange going on (HTTP/1.1: one at a time on a connection). */
  current?: Exchange
}

/** Bytes of each exchange in a window (an exchange may have begun before it). */
type WireTally = Map<Exchange, { sent: number; received: number; began: boolean }>

/**
 * A TCP proxy in front of the site that counts every byte both ways. It
 * reads what HTTP/1.1 shows on the wire: a request starts a chunk from the
 * browser with its request line, a response a chunk from the site with its
 * status line; so it can name what the bytes were for, drop the connection
 * of the event stream and answer the stream's reconnects 503.
 */
class Wire {
  tally: WireTally | undefined
  connections = 0
  /** When a request last started. */
  lastActivity = Date.now()
  refuseStream = false
  private conns = new Set<Conn>()
  private server: Server

  constructor(private readonly port: number) {
    this.server = createServer((client) => this.accept(client))
  }

  listen(): Promise<number> {
    return new Promise((resolve) => {
      this.server.listen(0, '127.0.0.1', () => {
        const address = this.server.address()
        resolve(typeof address === 'object' && address ? address.port : 0)
      })
    })
  }

  window(): WireTally {
    this.connections = 0
    this.tally = new Map()
    return this.tally
  }

  stop() {
    this.tally = undefined
  }

  /** Ends the connection of every open event stream, as a network would. */
  dropStream(): number {
    let dropped = 0
    for (const c of this.conns) {
      if (c.current?.path !== EVENTS) continue
      c.client.destroy()
      c.server.destroy()
      dropped++
    }
    return dropped
  }

  close(): Promise<void> {
    for (const c of this.conns) {
      c.client.destroy()
      c.server.destroy()
    }
    return new Promise((r) => this.server.close(() => r()))
  }

  private count(e: Exchange | undefined, sent: number, received: number, began = false) {
    if (!this.tally || !e) return
    const row = this.tally.get(e) ?? { sent: 0, received: 0, began }
    row.sent += sent
    row.received += received
    this.tally.set(e, row)
  }

  private accept(client: Socket) {
    if (this.tally) this.connections++
    const server = connect(this.port, '127.0.0.1')
    const conn: Conn = { client, server }
    this.conns.add(conn)
    client.on('data', (chunk: Buffer) => {
      const line = /^([A-Z]+) (\S+) HTTP\/1\.1\r\n/.exec(chunk.subarray(0, 300).toString('latin1'))
      if (line) {
        this.lastActivity = Date.now()
        conn.current = {
          method: line[1]!,
          path: new URL(line[2]!, 'http://x').pathname,
          at: Date.now(),
        }
        this.count(conn.current, 0, 0, true)
      }
      this.count(conn.current, chunk.length, 0)
      if (line && conn.current?.path === EVENTS && this.refuseStream) {
        const answer =
          'HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'
        conn.current.status = 503
        this.count(conn.current, 0, answer.length)
        client.end(answer)
        server.destroy()
        return
      }
      server.write(chunk)
    })
    server.on('data', (chunk: Buffer) => {
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(chunk.subarray(0, 20).toString('latin1'))
      if (status && conn.current) conn.current.status = Number(status[1])
      this.count(conn.current, 0, chunk.length)
      client.write(chunk)
    })
    const end = () => {
      client.destroy()
      server.destroy()
      this.conns.delete(conn)
    }
    for (const socket of [client, server]) {
      socket.on('close', end)
      socket.on('error', end)
    }
  }
}

// ------------------------------------------------- the DevTools protocol

/** One request of one target, as its Network events told. */
interface Request {
  target: string
  /** The DevTools session of its target. */
  session: string
  method: string
  url: URL
  /** Bytes of the request as sent, rebuilt (see the top). */
  sent: number
  /** Bytes of its body. */
  body: number
  status?: number
  /** Answered by the service worker, or not the network's. */
  offWire: boolean
  /** Bytes received counted so far (all of them, in and out of windows). */
  seen: number
  done: boolean
  failed?: string
  /** The headers as sent are known (requestWillBeSentExtraInfo). */
  extra: boolean
  /** When it started. */
  at: number
  /** The window it started in (undefined: before any). */
  window?: Tally
}

/** What one measuring window saw. */
interface Tally {
  start: number
  received: number
  sent: number
  /** Requests started in the window. */
  requests: Request[]
  /** Requests started before it that received bytes in it (the event stream). */
  carried: Map<Request, number>
}

type Params = Record<string, unknown> & {
  requestId: string
  encodedDataLength: number
  request: { url: string; method: string; headers: Record<string, string>; postData?: string }
  response: { status: number; encodedDataLength: number; fromServiceWorker?: boolean }
  headers: Record<string, string>
  errorText: string
}

class Recorder {
  private requests = new Map<string, Request>()
  /**
   * The headers as sent, by request id alone: those of a dedicated worker's
   * requests come on its page's session (the frame's network stack sends
   * them), with the same request id.
   */
  private extraHeaders = new Map<string, Record<string, string>>()
  private byId = new Map<string, Request>()
  tally: Tally | undefined
  /** When a request last started or finished anywhere. */
  lastActivity = Date.now()

  window(): Tally {
    this.tally = { start: Date.now(), received: 0, sent: 0, requests: [], carried: new Map() }
    return this.tally
  }

  stop() {
    this.tally = undefined
  }

  /** Requests of the event stream that are answered and still open. */
  openStreams(): Request[] {
    return [...this.requests.values()].filter(
      (r) => r.url.pathname === EVENTS && r.status === 200 && !r.done && !r.failed,
    )
  }

  private received(r: Request, bytes: number) {
    r.seen += bytes
    const t = this.tally
    if (!t || r.offWire || bytes <= 0) return
    t.received += bytes
    if (r.window !== t) t.carried.set(r, (t.carried.get(r) ?? 0) + bytes)
  }

  /** The request line, headers (as sent when known) and body of a request. */
  private sentBytes(r: Request, headers: Record<string, string>) {
    let bytes = `${r.method} ${r.url.pathname}${r.url.search} HTTP/1.1\r\n\r\n`.length
    for (const [k, v] of Object.entries(headers)) bytes += `${k}: ${v}\r\n`.length
    return bytes + r.body
  }

  on(target: string, session: string, method: string, p: Params) {
    const key = `${session}:${p.requestId}`
    const r = this.requests.get(key)
    switch (method) {
      case 'Network.requestWillBeSent': {
        this.lastActivity = Date.now()
        const url = new URL(p.request.url)
        if (!url.protocol.startsWith('http')) return
        const req: Request = {
          target,
          session,
          extra: this.extraHeaders.has(p.requestId),
          method: p.request.method,
          url,
          sent: 0,
          body: p.request.postData ? Buffer.byteLength(p.request.postData) : 0,
          offWire: false,
          seen: 0,
          done: false,
          at: Date.now(),
          ...(this.tally ? { window: this.tally } : {}),
        }
        req.sent = this.sentBytes(req, this.extraHeaders.get(p.requestId) ?? p.request.headers)
        this.requests.set(key, req)
        this.byId.set(p.requestId, req)
        this.tally?.requests.push(req)
        return
      }
      case 'Network.requestWillBeSentExtraInfo': {
        // The headers as sent (cookies included); may come before or after.
        this.extraHeaders.set(p.requestId, p.headers)
        const sent = this.byId.get(p.requestId)
        if (!sent) return
        sent.sent = this.sentBytes(sent, p.headers)
        sent.extra = true
        return
      }
      case 'Network.responseReceived':
        if (!r) return
        r.status = p.response.status
        if (p.response.fromServiceWorker) r.offWire = true
        this.received(r, p.response.encodedDataLength)
        return
      case 'Network.dataReceived':
        if (r) this.received(r, p.encodedDataLength)
        return
      case 'Network.loadingFinished':
        this.lastActivity = Date.now()
        if (!r) return
        this.received(r, p.encodedDataLength - r.seen)
        r.done = true
        return
      case 'Network.loadingFailed':
        this.lastActivity = Date.now()
        if (r) r.failed = p.errorText
        return
    }
  }

  /** A target went away (a worker of a page that navigated): its requests with it. */
  detached(session: string) {
    for (const r of this.requests.values()) {
      if (r.session !== session || r.done) continue
      r.done = true
      r.failed ??= 'target gone'
    }
  }

  /** Counts a request's sent bytes in its window once it is known not to be the service worker's. */
  settleSent(t: Tally) {
    t.sent = t.requests.filter((r) => !r.offWire).reduce((s, r) => s + r.sent, 0)
  }
}

const EVENTS_OF_INTEREST = [
  'Network.requestWillBeSent',
  'Network.requestWillBeSentExtraInfo',
  'Network.responseReceived',
  'Network.dataReceived',
  'Network.loadingFinished',
  'Network.loadingFailed',
  'Target.attachedToTarget',
  'Target.receivedMessageFromTarget',
  'Target.detachedFromTarget',
]

/**
 * The Network events of a target and, through auto-attach, of every target
 * below it (the page's dedicated workers and its service worker, and theirs).
 * Playwright's CDPSession only passes on events of its own session, so the
 * children are attached without `flatten`: their messages come wrapped in
 * Target.receivedMessageFromTarget and commands go out through
 * Target.sendMessageToTarget.
 */
class Tap {
  private children = new Map<string, Tap>()
  private static nextId = 1
  static targets: string[] = []

  constructor(
    private readonly recorder: Recorder,
    private readonly type: string,
    private readonly session: string,
    private readonly send: (method: string, params: object) => void,
  ) {}

  start() {
    Tap.targets.push(this.type)
    this.send('Network.enable', {})
    this.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: false,
      flatten: false,
    })
  }

  on(method: string, params: Record<string, unknown>) {
    if (method === 'Target.attachedToTarget') {
      const sessionId = params.sessionId as string
      const type = (params.targetInfo as { type: string }).type
      const child = new Tap(this.recorder, type, sessionId, (m, p) =>
        this.send('Target.sendMessageToTarget', {
          sessionId,
          message: JSON.stringify({ id: Tap.nextId++, method: m, params: p }),
        }),
      )
      this.children.set(sessionId, child)
      child.start()
    } else if (method === 'Target.receivedMessageFromTarget') {
      const message = JSON.parse(params.message as string) as {
        method?: string
        params?: Record<string, unknown>
      }
      if (message.method) {
        this.children.get(params.sessionId as string)?.on(message.method, message.params ?? {})
      }
    } else if (method === 'Target.detachedFromTarget') {
      const sessionId = params.sessionId as string
      this.children.delete(sessionId)
      this.recorder.detached(sessionId)
    } else if (method.startsWith('Network.')) {
      this.recorder.on(this.type, this.session, method, params as Params)
    }
  }

  static async root(recorder: Recorder, cdp: CDPSession): Promise<Tap> {
    const tap = new Tap(recorder, 'page', 'page', (method, params) => {
      // A target may be gone by the time a command reaches it (a worker of a
      // page that navigated): nothing to count there any more.
      void cdp.send(method as 'Network.enable', params).catch(() => undefined)
    })
    for (const e of EVENTS_OF_INTEREST) {
      cdp.on(e as 'Network.dataReceived', (p) => tap.on(e, p as unknown as Record<string, unknown>))
    }
    tap.start()
    return tap
  }
}

// ------------------------------------------------------------- the run

async function settle(recorder: Recorder, wire: Wire, minMs: number, maxMs: number) {
  const start = Date.now()
  await sleep(minMs)
  const last = () => Math.max(recorder.lastActivity, wire.lastActivity)
  while (Date.now() - last() < QUIET_MS && Date.now() - start < maxMs) await sleep(250)
  return Date.now() - start
}

interface Row {
  n: number
  received: number
  sent: number
  /** Seconds into the window each began at. */
  at: number[]
}

function addRow(rows: Map<string, Row>, key: string, received: number, sent: number, at?: number) {
  const r = rows.get(key) ?? { n: 0, received: 0, sent: 0, at: [] }
  if (at !== undefined) {
    r.n++
    r.at.push(at)
  }
  r.received += received
  r.sent += sent
  rows.set(key, r)
}

function printRows(rows: Map<string, Row>) {
  for (const [key, r] of [...rows].sort((a, b) => a[0].localeCompare(b[0]))) {
    const at = r.at.length ? ` at ${r.at.map((s) => s.toFixed(0)).join(', ')} s` : ''
    console.log(
      `    ${String(r.n).padStart(3)} × ${key}: received ${r.received} B, sent ${r.sent} B${at}`,
    )
  }
}

const status = (r: Request) =>
  r.failed === undefined
    ? String(r.status ?? 'no answer yet')
    : r.status === undefined
      ? `failed ${r.failed}`
      : // An answer whose body nobody reads (the worker's 304s, the 204 of a
        // keepalive fetch) ends as ERR_ABORTED in DevTools.
        `${r.status}, then ${r.failed}`

/**
 * Prints a window's figures; answers the wire's bytes a minute by path,
 * without the service worker's update check (SW_SCRIPTS), and that check's
 * bytes on their own.
 */
function report(t: Tally, w: WireTally, connections: number, ms: number, perMinute = true) {
  const secs = (at: number) => (at - t.start) / 1000
  const min = ms / 60_000
  const rate = (bytes: number) => (perMinute ? `${kb(bytes / min)} KB/min` : `${bytes} B`)
  let received = 0
  let sent = 0
  let swCheck = 0
  const byPath = new Map<string, number>()
  for (const [e, r] of w) {
    received += r.received
    sent += r.sent
    if (SW_SCRIPTS.includes(e.path)) swCheck += r.received + r.sent
    else byPath.set(e.path, (byPath.get(e.path) ?? 0) + (r.received + r.sent) / min)
  }
  console.log(
    `  on the wire (counting proxy): received ${rate(received)}, sent ${rate(sent)}, total ${rate(received + sent)} (${received + sent} B in ${(ms / 1000).toFixed(0)} s; ${connections} new connections)`,
  )
  const wireRows = new Map<string, Row>()
  for (const [e, r] of w) {
    const key = `${e.method} ${e.path} ${e.status ?? '-'}${r.began ? '' : ' (begun before)'}`
    addRow(wireRows, key, r.received, r.sent, r.began ? secs(e.at) : undefined)
  }
  printRows(wireRows)
  const total = t.received + t.sent
  console.log(
    `  DevTools, page + workers: received ${rate(t.received)}, sent ${rate(t.sent)} (headers rebuilt), total ${rate(total)} (${total} B)`,
  )
  const rows = new Map<string, Row>()
  for (const [r, bytes] of t.carried) {
    addRow(rows, `${r.method} ${r.url.pathname} ${status(r)} (${r.target}, begun before)`, bytes, 0)
  }
  for (const r of t.requests) {
    const where = r.offWire ? `${r.target}, answered by the service worker` : r.target
    const key = `${r.method} ${r.url.pathname} ${status(r)} (${where}${r.extra ? '' : ', headers as sent unknown'})`
    addRow(rows, key, r.offWire ? 0 : r.seen, r.offWire ? 0 : r.sent, secs(r.at))
  }
  printRows(rows)
  return { byPath, swCheck }
}

/** An idle figure: KB a minute, and what it is made of. */
function idleFigure({ byPath, swCheck }: ReturnType<typeof report>) {
  const perMin = [...byPath.values()].reduce((s, b) => s + b, 0)
  const parts = [...byPath]
    .sort((a, b) => b[1] - a[1])
    .map(([path, b]) => `${path} ${kb(b)}`)
    .join(', ')
  const check = swCheck
    ? `; not counted: the service worker's update check after the page load (${SW_SCRIPTS.join(', ')}), ${swCheck} B once`
    : ''
  return { perMin, text: `${kb(perMin)} KB/min (${parts || 'nothing'}${check})` }
}

const site = await startSite()
const wire = new Wire(Number(new URL(site.url).port))
const proxyPort = await wire.listen()
const browser = await launchBrowser()
try {
  const context = await newContext(browser, { ...site, url: `http://127.0.0.1:${proxyPort}` })
  const page: Page = await context.newPage()
  const recorder = new Recorder()
  await Tap.root(recorder, await context.newCDPSession(page))

  await logIn(page)
  await page.waitForURL((u) => u.pathname !== '/login', { timeout: 60_000 })
  if (new URL(page.url()).pathname !== '/members') await page.goto('/members')
  await page.locator('ul.grid li.tile').first().waitFor({ timeout: 60_000 })
  const settledUp = await settle(recorder, wire, 20_000, 80_000)

  console.log(
    `Idle traffic of a member's tab (/members), ${new Date().toISOString()}, ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  console.log(`command: node ${process.argv.slice(1).join(' ')}`)
  console.log(
    `targets attached: ${Tap.targets.join(', ')}; settled ${(settledUp / 1000).toFixed(0)} s after /members showed its members`,
  )

  // Stream up.
  const streams = recorder.openStreams()
  if (streams.length !== 1) {
    console.log(`WARNING: ${streams.length} open event streams before the window (expected 1)`)
  }
  const upWire = wire.window()
  const up = recorder.window()
  await sleep(UP_MS)
  recorder.stop()
  wire.stop()
  recorder.settleSent(up)
  const upMs = Date.now() - up.start
  console.log(
    `\nstream up (held by the ${streams.map((s) => s.target).join(', ')}), ${(upMs / 60_000).toFixed(2)} min:`,
  )
  const upIdle = idleFigure(report(up, upWire, wire.connections, upMs))
  console.log(
    `  goal ≤ 0.5 KB a minute (≥ 30× below the old 16 KB): ${upIdle.text}, ${(OLD_BYTES_PER_MIN / upIdle.perMin).toFixed(1)}× below the old: ${upIdle.perMin <= GOAL_BYTES_PER_MIN ? 'met' : 'NOT met'}`,
  )

  // Stream down: its connection drops, its reconnects are refused.
  wire.refuseStream = true
  const dropWire = wire.window()
  const drop = recorder.window()
  const dropped = wire.dropStream()
  const settledDown = await settle(recorder, wire, 10_000, 60_000)
  recorder.stop()
  wire.stop()
  recorder.settleSent(drop)
  console.log(
    `\nstream dropped (${dropped} connection), its reconnects answered 503; the ${(settledDown / 1000).toFixed(0)} s after:`,
  )
  report(drop, dropWire, wire.connections, settledDown, false)

  const downWire = wire.window()
  const down = recorder.window()
  await sleep(DOWN_MS)
  recorder.stop()
  wire.stop()
  recorder.settleSent(down)
  const downMs = Date.now() - down.start
  console.log(
    `\nstream down, ${(downMs / 60_000).toFixed(2)} min (POLL_MS ${POLL_MS / 1000} s: at least two poll periods):`,
  )
  const downIdle = idleFigure(report(down, downWire, wire.connections, downMs))
  console.log(
    `  idle with the stream down: ${downIdle.text}, ${(OLD_BYTES_PER_MIN / downIdle.perMin).toFixed(1)}× below the old 16 KB`,
  )
  const polls = down.requests.filter((r) => POLLED.includes(r.url.pathname))
  for (const path of POLLED) {
    const mine = polls.filter((r) => r.url.pathname === path)
    console.log(
      `  polls of ${path}: ${mine.length}, answered ${mine.map((r) => r.status ?? r.failed).join(', ')} (${mine.map((r) => r.seen).join(', ')} B)`,
    )
  }
  const conditional = polls.filter((r) => r.status === 304).length
  const full = polls.filter((r) => r.status === 200).length
  const met = polls.length > 0 && conditional === polls.length
  console.log(
    `  goal polls conditional (every poll while nothing changed answers 304 or an empty delta): ${polls.length} polls, ${conditional} answered 304, ${full} answered 200: ${met ? 'met' : 'NOT met'}`,
  )
} finally {
  await browser.close()
  await wire.close()
  await site.stop()
}
