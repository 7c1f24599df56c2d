// The request log (api/http/request-log.ts): one JSON line per request with
// method, route, status, duration, member and request id, and nothing of the
// request's secrets; the id comes back as X-Request-Id; an unexpected error
// is logged with its stack (api/http/errors.ts) under the same id.
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { onError } from './errors.ts'
import { createLogger, requestLog } from './request-log.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** A logger at info whose lines land in `lines`, parsed. */
function captured() {
  const raw: string[] = []
  const logger = createLogger({ LOG_LEVEL: 'info' }, { write: (s: string) => void raw.push(s) })
  const lines = () => raw.map((s) => JSON.parse(s) as Record<string, unknown>)
  return { logger, raw, lines, clear: () => raw.splice(0) }
}

describe('request log through createApi', () => {
  let database: TestDatabase
  let app: Api
  const log = captured()
  beforeAll(async () => {
    database = await freshDatabase('pglite')
    app = createApi({ db: database.db, logger: log.logger })
  })
  afterAll(() => database?.close())

  it('one line per request with method, route, status, duration and the id it sends back', async () => {
    log.clear()
    const res = await send(app, '/healthz')
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')
    expect(id).toMatch(UUID)
    const lines = log.lines()
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request',
      method: 'GET',
      route: '/healthz',
      status: 200,
      reqId: id,
    })
    expect(typeof lines[0]?.ms).toBe('number')
    expect(lines[0]).not.toHaveProperty('memberId')
  })

  it("a member's request names the member; no cookie, token or query string", async () => {
    const member = await addMember(database.db)
    const cookie = await login(app, member.email, TEST_PASSWORD)
    const token = cookie.slice('sid='.length)
    log.clear()
    const res = await send(app, '/api/user.php?token=not-for-the-log', { cookie })
    expect(res.status).toBe(200)
    const lines = log.lines()
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({
      method: 'GET',
      route: '/api/user.php',
      status: 200,
      memberId: member.id,
      reqId: res.headers.get('x-request-id'),
    })
    const text = log.raw.join('')
    expect(text).not.toContain(token)
    expect(text).not.toContain('not-for-the-log')
    expect(text).not.toContain('sid=')
    expect(text).not.toContain(member.email)
  })

  it('an incoming X-Request-Id is not taken without TRUST_PROXY', async () => {
    const res = await send(app, '/healthz', { headers: { 'x-request-id': 'from-outside-1' } })
    expect(res.headers.get('x-request-id')).toMatch(UUID)
  })
})

describe('request log middleware', () => {
  const appWith = (trustProxy: boolean, logger = captured().logger) =>
    new Hono()
      .onError(onError)
      .use(requestLog({ trustProxy, logger }))
      .get('/ok/:id', (c) => c.text('ok'))
      .get('/boom', () => {
        throw new Error('kaboom')
      })

  it('behind a trusted proxy its valid X-Request-Id is kept; an invalid one is replaced', async () => {
    const log = captured()
    const app = appWith(true, log.logger)
    const kept = await app.request('/ok/7', { headers: { 'x-request-id': 'lb-1234.abc' } })
    expect(kept.headers.get('x-request-id')).toBe('lb-1234.abc')
    expect(log.lines()[0]).toMatchObject({ reqId: 'lb-1234.abc', route: '/ok/:id' })
    const bad = await app.request('/ok/7', { headers: { 'x-request-id': '{"evil": 1}' } })
    expect(bad.headers.get('x-request-id')).toMatch(UUID)
    const long = await app.request('/ok/7', { headers: { 'x-request-id': 'x'.repeat(129) } })
    expect(long.headers.get('x-request-id')).toMatch(UUID)
  })

  it('an unexpected error is logged with its stack under the request id, then its line', async () => {
    const log = captured()
    const res = await appWith(false, log.logger).request('/boom')
    expect(res.status).toBe(500)
    const id = res.headers.get('x-request-id')
    const lines = log.lines()
    expect(lines).toHaveLength(2)
    const [error, request] = lines as [Record<string, { stack?: string }>, Record<string, unknown>]
    expect(error).toMatchObject({ level: 50, msg: 'unhandled error', reqId: id, route: '/boom' })
    expect(error.err?.stack).toContain('kaboom')
    expect(request).toMatchObject({ msg: 'request', status: 500, route: '/boom', reqId: id })
  })
})

describe('createLogger', () => {
  it('is silent under vitest unless LOG_LEVEL says otherwise; info by default', () => {
    expect(createLogger({ VITEST: 'true' }).level).toBe('silent')
    expect(createLogger({ VITEST: 'true', LOG_LEVEL: 'debug' }).level).toBe('debug')
    expect(createLogger({}).level).toBe('info')
    expect(() => createLogger({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL=loud/)
  })
})
