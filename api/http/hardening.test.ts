// Request hardening: cross-site logout, body size, session housekeeping.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest'
import { sessions } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { JSON_BODY_LIMIT } from './body.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'

describeEngines('hardening on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let email: string
  let memberId: number

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db })
    const member = await addMember(t.db, { email: 'hardening@example.com' })
    email = member.email
    memberId = member.id
  })
  afterAll(() => t.close())

  it('refuses a logout started by another site, and keeps the session', async () => {
    const cookie = await login(app, email, TEST_PASSWORD)
    const res = await send(app, '/api/logout.php', {
      cookie,
      headers: { 'sec-fetch-site': 'cross-site' },
    })
    expect(res.status).toBe(403)
    expect((await send(app, '/api/user.php', { cookie })).status).toBe(200)
    const own = await send(app, '/api/logout.php', {
      cookie,
      headers: { 'sec-fetch-site': 'same-origin' },
    })
    expect(await own.json()).toEqual({ status: 'done' })
    expect((await send(app, '/api/user.php', { cookie })).status).toBe(403)
  })

  it('answers 413 naming the body for a JSON body over the limit, and logs nobody in', async () => {
    const res = await send(app, '/api/login.php', {
      method: 'POST',
      body: { email, password: 'x'.repeat(100_000) },
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({ error: 'body_too_large', field: 'body' })
    expect(res.headers.getSetCookie()).toEqual([])
  })

  /**
   * A login posted over Node's HTTP server, as `npm start` serves it, with
   * its body sent whole (Content-Length, as every browser's fetch sends it)
   * or chunked (no length up front): the status and the body answered.
   */
  async function postOverHttp(body: string, framing: 'length' | 'chunked') {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
    onTestFinished(() => new Promise<void>((done) => server.close(() => done())))
    await new Promise((ready) => server.once('listening', ready))
    const { port } = server.address() as AddressInfo
    return new Promise<{ status: number; body: string; cookies: string[] }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/login.php',
          headers: {
            origin: `http://127.0.0.1:${port}`,
            'content-type': 'application/json',
            ...(framing === 'length' ? { 'content-length': Buffer.byteLength(body) } : {}),
          },
        },
        (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (chunk: string) => {
            text += chunk
          })
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: text,
              cookies: res.headers['set-cookie'] ?? [],
            }),
          )
        },
      )
      // The server may answer 413 and close before the whole body is sent.
      req.on('error', reject)
      if (framing === 'chunked') {
        for (let at = 0; at < body.length; at += 16_384) req.write(body.slice(at, at + 16_384))
        req.end()
      } else req.end(body)
    })
  }

  it.each(['length', 'chunked'] as const)(
    'answers 413 over HTTP to a JSON body over 64 KB sent with %s framing, and logs nobody in',
    async (framing) => {
      expect(JSON_BODY_LIMIT).toBe(64 * 1024)
      const over = JSON.stringify({ email, password: TEST_PASSWORD, pad: 'x'.repeat(70_000) })
      const res = await postOverHttp(over, framing)
      expect(res.status).toBe(413)
      expect(JSON.parse(res.body)).toMatchObject({ error: 'body_too_large', field: 'body' })
      expect(res.cookies).toEqual([])
    },
  )

  it.each(['length', 'chunked'] as const)(
    'reads a JSON body under 64 KB sent over HTTP with %s framing',
    async (framing) => {
      const under = JSON.stringify({ email, password: TEST_PASSWORD, pad: 'x'.repeat(60_000) })
      const res = await postOverHttp(under, framing)
      // The whole body was read and parsed: the login's own check answers.
      expect(res.status, res.body).toBe(200)
      expect(res.cookies.some((c) => c.startsWith('sid='))).toBe(true)
    },
  )

  it('removes the member’s expired sessions when a new one starts', async () => {
    await login(app, email, TEST_PASSWORD)
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.memberId, memberId))
    await login(app, email, TEST_PASSWORD)
    const rows = await t.db.select().from(sessions).where(eq(sessions.memberId, memberId))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.expiresAt.getTime()).toBeGreaterThan(Date.now())
  })
})
