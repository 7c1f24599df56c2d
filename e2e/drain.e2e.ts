// A graceful drain on SIGTERM, through the real entry (api/start.ts as
// `npm start` runs it; docs/several-machines.md, "Stopping a machine"):
// requests in flight when the signal arrives are answered, none is cut, and
// the process exits 0. Before, the start closed every connection right after
// server.close(), which reset every request in flight.
import { Agent, request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO, type Site, startSite } from './harness.ts'

/** How many requests are in flight when the signal arrives. */
const REQUESTS = 60
/** The drain's grace period here: 60 logins on a slow machine take a while. */
const GRACE_S = 90

interface Answer {
  status?: number
  /** A transport error instead of an answer (ECONNRESET, socket hang up, ECONNREFUSED). */
  error?: string
}

function answerOf(req: ReturnType<typeof request>): Promise<Answer> {
  return new Promise((resolve) => {
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }))
    req.on('response', (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }))
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }))
    })
  })
}

/**
 * A login of the demo member sent in two parts: its headers and half its body
 * now (the server has the request and waits for the rest), the rest on
 * `finish()`. From the loopback address `from`: each login has an address of
 * its own, under the per-address login limit.
 */
function slowLogin(site: Site, agent: Agent, from: string) {
  const body = JSON.stringify(DEMO)
  const half = Math.floor(body.length / 2)
  const req = request(new URL('/api/login.php', site.url), {
    agent,
    method: 'POST',
    localAddress: from,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      origin: site.url,
    },
  })
  const answer = answerOf(req)
  const started = new Promise<void>((resolve) => req.write(body.slice(0, half), () => resolve()))
  return { started, answer, finish: () => req.end(body.slice(half)) }
}

const get = (site: Site, path: string) => {
  const req = request(new URL(path, site.url), { agent: false })
  const answer = answerOf(req)
  req.end()
  return answer
}

/** Waits (at most `ms`) until `done()`; false if it never held. */
async function until(done: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
  return done()
}

describe('SIGTERM while requests are in flight', () => {
  let site: Site
  beforeAll(async () => {
    site = await startSite({ DEMO_MEMBERS: '30', SHUTDOWN_GRACE_S: String(GRACE_S) })
  })
  afterAll(() => site?.stop())

  it('answers every request in flight, refuses new connections, then exits with code 0', async () => {
    // Keep-alive connections, one per request, as browsers hold them.
    const agent = new Agent({ keepAlive: true, maxSockets: REQUESTS })
    const logins = Array.from({ length: REQUESTS }, (_, i) =>
      slowLogin(site, agent, `127.0.0.${i + 2}`),
    )
    await Promise.all(logins.map((l) => l.started))
    // A probe sent after them and answered: the server has read every
    // login's headers by now (each arrived before the probe's connection).
    expect(await get(site, '/healthz')).toEqual({ status: 200 })

    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
    const exited = site.signal('SIGTERM').then((e) => {
      exit = e
      return e
    })
    const draining = () => site.output().includes('shutdown: draining')
    expect(
      await until(() => draining() || exit !== undefined, 10_000),
      'the site neither started its drain nor exited within 10 s of SIGTERM',
    ).toBe(true)
    // While it drains, a new connection is refused (a load balancer's next
    // request goes to another machine).
    if (exit === undefined) expect(await get(site, '/healthz')).toEqual({ error: 'ECONNREFUSED' })

    // The rest of each login: every one is handled and answered.
    for (const l of logins) l.finish()
    const answers = await Promise.all(logins.map((l) => l.answer))
    agent.destroy()
    const failed = answers.filter((a) => a.status === undefined || a.status >= 400)
    expect(
      failed,
      `${failed.length} of ${REQUESTS} logins in flight got no good answer; server output:\n${site.output().slice(-3000)}`,
    ).toEqual([])
    expect(await exited, site.output().slice(-3000)).toEqual({ code: 0, signal: null })
    // The drain waited for exactly these.
    expect(site.output()).toContain(`shutdown: draining, ${REQUESTS} request(s) in flight`)
  })
})
