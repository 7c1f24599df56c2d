// GET /metrics (api/http/metrics.ts): Prometheus text to a loopback peer
// (the socket's address) and to the bearer of METRICS_TOKEN, 404 to anyone
// else; the request histogram fills, a send counts a message, a failed job
// attempt counts by kind.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, it, onTestFinished, vi } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { credit } from '../credits/ledger.ts'
import { createEventBus, notifyMembers } from '../events/bus.ts'
import { createJobRunner, enqueue } from '../jobs/queue.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { eventStream } from '../test/event-stream.ts'
import { login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'

const TOKEN = 'metrics-test-token'

/** The node-server bindings of a request from `address` (what getConnInfo reads). */
const peer = (address: string) => ({
  incoming: {
    socket: { remoteAddress: address, remoteFamily: address.includes(':') ? 'IPv6' : 'IPv4' },
  },
})

describeEngines('GET /metrics on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  beforeAll(async () => {
    database = await freshDatabase(engine)
    vi.stubEnv('METRICS_TOKEN', TOKEN)
    app = createApi({ db: database.db })
    vi.unstubAllEnvs()
  })
  afterAll(() => database?.close())

  const scrape = (address: string, headers: Record<string, string> = {}) =>
    app.request('http://localhost/metrics', { headers }, peer(address))
  /** The value of one sample line (`name{labels} value`), 0 when absent. */
  const sample = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `))
    return line ? Number(line.slice(series.length + 1)) : 0
  }

  it('answers loopback with the Prometheus text and the request histogram', async () => {
    expect((await send(app, '/healthz')).status).toBe(200)
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await scrape(address)
      expect(res.status, address).toBe(200)
      expect(res.headers.get('content-type')).toContain('text/plain')
      const text = await res.text()
      expect(text).toContain('# HELP http_request_duration_seconds')
      expect(text).toMatch(
        /http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} [1-9]/,
      )
      expect(text).toContain('# HELP job_queue_depth')
      expect(text).toContain('job_queue_depth 0')
      expect(text).toContain('# HELP event_streams_open')
      // The process's own: memory and event-loop lag (prom-client's defaults).
      expect(text).toMatch(/^process_resident_memory_bytes \d+/m)
      expect(text).toContain('# HELP nodejs_eventloop_lag_seconds')
      // The pool of pg; PGlite has none.
      if (engine === 'postgres') expect(text).toMatch(/^db_pool_waiting \d+$/m)
      else expect(text).not.toContain('db_pool_waiting')
    }
  })

  it('another peer gets 404 without the token, 200 with it', async () => {
    const outside = '203.0.113.5'
    expect((await scrape(outside)).status).toBe(404)
    expect((await scrape(outside, { authorization: 'Bearer wrong' })).status).toBe(404)
    expect((await scrape(outside, { authorization: TOKEN })).status).toBe(404)
    // A forwarded header never makes a request local.
    expect((await scrape(outside, { 'x-forwarded-for': '127.0.0.1' })).status).toBe(404)
    const res = await scrape(outside, { authorization: `Bearer ${TOKEN}` })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('# HELP')
    // Through a proxy on this machine: forwarded, so not local.
    expect((await scrape('127.0.0.1', { 'x-forwarded-for': outside })).status).toBe(404)
    // Without the node-server bindings (no socket to ask): not local.
    expect((await app.request('/metrics')).status).toBe(404)
  })

  it('a send counts a message', async () => {
    const [alice, bob] = [await addMember(database.db), await addMember(database.db)]
    if (!alice || !bob) throw new Error('members')
    await database.db.transaction((tx) => credit(tx, alice.id, 1_000, 'bonus', 'test'))
    const cookie = await login(app, alice.email, TEST_PASSWORD)
    const chat = await send(app, `/api/chat.php?profile=${bob.id}`, { cookie })
    const conversation = ((await chat.json()) as { id: number }).id
    const before = sample(await (await scrape('127.0.0.1')).text(), 'messages_sent_total')
    const body = { conversation, text: 'hello', client_id: randomUUID() }
    const sent = await send(app, '/api/messages.php', { method: 'POST', cookie, body })
    expect(sent.status).toBe(201)
    // A replay of the same client id is not a new message.
    const replay = await send(app, '/api/messages.php', { method: 'POST', cookie, body })
    expect(replay.status).toBe(200)
    const after = sample(await (await scrape('127.0.0.1')).text(), 'messages_sent_total')
    expect(after - before).toBe(1)
  })

  it('an open event stream counts open, and its session checks count as upkeep', async () => {
    const bus = createEventBus(database.listen)
    onTestFinished(() => bus.close())
    const quick = createApi({
      db: database.db,
      events: bus,
      eventsTiming: { keepAliveMs: 20, sessionCheckMs: 30 },
    })
    const member = await addMember(database.db)
    const cookie = await login(quick, member!.email, TEST_PASSWORD)
    const before = await (await scrape('127.0.0.1')).text()
    const res = await send(quick, '/api/events.php', { cookie })
    const stream = eventStream(res.body)
    await stream.untilText('event: ready')
    // Four keep-alives (80 ms) span at least two session checks (every 30 ms).
    await stream.until('4 keep-alives', (seen) => seen.split(': keep-alive').length > 4)
    const during = await (await scrape('127.0.0.1')).text()
    expect(sample(during, 'event_streams_open') - sample(before, 'event_streams_open')).toBe(1)
    const checks = 'event_stream_session_checks_total'
    expect(sample(during, checks) - sample(before, checks)).toBeGreaterThanOrEqual(1)
    expect(during).toContain(`# HELP ${checks}`)
    await stream.cancel()
  })

  it('the poke fan-out: the channels this process LISTENs on, and the pokes it was sent', async () => {
    const bus = createEventBus(database.listen)
    onTestFinished(() => bus.close())
    const live = createApi({ db: database.db, events: bus })
    const metricsOf = async () =>
      (await live.request('http://localhost/metrics', {}, peer('127.0.0.1'))).text()
    const member = await addMember(database.db)
    const offline = await addMember(database.db)
    const cookie = await login(live, member.email, TEST_PASSWORD)
    const stream = eventStream((await send(live, '/api/events.php', { cookie })).body)
    await stream.untilText('event: ready')
    expect(sample(await metricsOf(), 'event_listen_channels')).toBe(1)
    // A poke of the member online here arrives; one of a member online nowhere is never sent here.
    await database.db.transaction((tx) => notifyMembers(tx, [offline.id], { type: 'likes' }))
    await database.db.transaction((tx) => notifyMembers(tx, [member.id], { type: 'likes' }))
    await stream.untilText('"likes"')
    const text = await metricsOf()
    expect(text).toContain('# HELP event_pokes_received')
    expect(sample(text, 'event_pokes_received{for="stream_here"}')).toBe(1)
    expect(sample(text, 'event_pokes_received{for="no_stream_here"}')).toBe(0)
    await stream.cancel()
  })

  it('a failed job attempt counts by kind', async () => {
    const kind = `metrics_test_${process.pid}`
    const runner = createJobRunner({
      db: database.db,
      handlers: {
        [kind]: async () => {
          throw new Error('nope')
        },
      },
      log: () => {},
    })
    const series = `job_failures_total{kind="${kind}"}`
    const before = sample(await (await scrape('127.0.0.1')).text(), series)
    await enqueue(database.db, { kind, maxAttempts: 1 })
    await runner.runDue()
    const after = sample(await (await scrape('127.0.0.1')).text(), series)
    expect(after - before).toBe(1)
  })
})
