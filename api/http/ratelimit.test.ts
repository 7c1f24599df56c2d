// Rate limits: login, sign-up, validate_email and reset answer 429
// with Retry-After past their limit, per key, counted in the database.
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rateLimits } from '../../db/schema/index.ts'
import { ApiError } from '../contract/index.ts'
import {
  type AccountsApi,
  accountsApi,
  freshEmail,
  ip,
  mailsTo,
  signUp,
  signupBody,
  tokenIn,
} from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { hit, LIMITS } from './ratelimit.ts'

describeEngines('rate limits on %s', (engine) => {
  let database: TestDatabase
  let api: AccountsApi

  beforeAll(async () => {
    database = await freshDatabase(engine)
    api = accountsApi(database.db)
  })
  afterAll(async () => {
    await api?.mailer.idle()
    await database?.close()
  })

  const expectLimited = async (res: Response) => {
    expect(res.status).toBe(429)
    expect(ApiError.parse(await res.json()).error).toBe('rate_limited')
    const retry = Number(res.headers.get('retry-after'))
    expect(retry).toBeGreaterThan(0)
  }

  it('counts atomically: parallel hits get distinct counts', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => hit(database.db, 'upload', 'parallel')),
    )
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    )
  })

  it('starts over in the next window and keeps keys hashed', async () => {
    const { windowMs, limit } = LIMITS.reset
    const start = Math.floor(Date.now() / windowMs) * windowMs
    for (let i = 0; i < limit; i++) await hit(database.db, 'reset', 'window', start + 1)
    expect((await hit(database.db, 'reset', 'window', start + 2)).allowed).toBe(false)
    expect((await hit(database.db, 'reset', 'window', start + windowMs)).count).toBe(1)
    const keys = (await database.db.select().from(rateLimits)).map((r) => r.key)
    // A plain key, or an account's scope and the address (a ScopedKey): hashes only.
    expect(keys.every((k) => /^[0-9a-f]{64}(\.[0-9a-f]{64})?$/.test(k))).toBe(true)
  })

  it('limits login per address and client, for known and unknown addresses alike', async () => {
    const member = await addMember(database.db, { email: freshEmail('login') })
    const attempt = (email: string, password: string, n: number) =>
      send(api.app, '/api/login.php', { method: 'POST', body: { email, password }, headers: ip(n) })
    for (let i = 0; i < LIMITS.login.limit; i++) {
      expect((await attempt(member.email, 'wrong', 1)).status).toBe(401)
    }
    // Past the limit even the right password waits: guessing cannot go on.
    await expectLimited(await attempt(member.email, TEST_PASSWORD, 1))
    // Another client, and another address from this client, are not affected.
    expect((await attempt(member.email, TEST_PASSWORD, 2)).status).toBe(200)
    expect((await attempt(freshEmail('other'), 'x', 1)).status).toBe(401)
    // An unknown address is limited the same way (no difference to observe).
    const ghost = freshEmail('ghost')
    for (let i = 0; i < LIMITS.login.limit; i++) await attempt(ghost, 'x', 3)
    await expectLimited(await attempt(ghost, 'x', 3))
  })

  describe('failed logins per account, from any addresses', () => {
    const attempt = (email: string, password: string, n: number) =>
      send(api.app, '/api/login.php', {
        method: 'POST',
        body: { email, password },
        headers: { 'x-forwarded-for': `198.51.100.${n}` },
      })
    /** 100 wrong passwords from ten addresses, ten each (TRUST_PROXY: X-Forwarded-For counts). */
    const botnet = async (email: string) => {
      for (let i = 0; i < 100; i++)
        expect((await attempt(email, 'guess', 1 + Math.floor(i / 10))).status).toBe(401)
    }

    it('locks the account after 100 failures in an hour, known and unknown alike', async () => {
      expect(LIMITS.login_account).toEqual({ limit: 100, windowMs: 3_600_000 })
      const member = await addMember(database.db, { email: freshEmail('botnet') })
      const ghost = freshEmail('ghost-botnet')
      await botnet(member.email)
      await botnet(ghost)
      // From another address, even the right password waits out the cool-down.
      const known = await attempt(member.email, TEST_PASSWORD, 200)
      const unknown = await attempt(ghost, TEST_PASSWORD, 200)
      for (const res of [known, unknown]) {
        await expectLimited(res)
        expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(3600)
        expect(res.headers.getSetCookie()).toEqual([])
      }
      // Another account is not affected.
      const other = await addMember(database.db, { email: freshEmail('bystander') })
      expect((await attempt(other.email, TEST_PASSWORD, 200)).status).toBe(200)
      // Never for ever: once the window is over the owner gets in.
      await database.db
        .update(rateLimits)
        .set({ windowStart: sql`${rateLimits.windowStart} - interval '60 minutes'` })
        .where(eq(rateLimits.bucket, 'login_account'))
      expect((await attempt(member.email, TEST_PASSWORD, 201)).status).toBe(200)
    })

    it('does not count successful logins', async () => {
      const member = await addMember(database.db, { email: freshEmail('often') })
      for (let n = 1; n <= 25; n++) {
        expect((await attempt(member.email, TEST_PASSWORD, 210)).status).toBe(200)
      }
      await botnet(member.email)
      await expectLimited(await attempt(member.email, TEST_PASSWORD, 210))
    })

    it('lifts the lock when the owner finishes a mailed password reset', async () => {
      const member = await addMember(database.db, { email: freshEmail('locked') })
      await botnet(member.email)
      await expectLimited(await attempt(member.email, TEST_PASSWORD, 220))
      await send(api.app, '/api/reset_password.php', {
        method: 'POST',
        body: { email: member.email },
        headers: ip(60),
      })
      await api.mailer.idle()
      const mail = (await mailsTo(database.db, member.email)).find((m) => m.kind === 'reset')
      const token = tokenIn(mail!.text, '/reset-password/do')
      const password = 'a brand new long secret'
      const done = await send(api.app, '/api/reset_password.php?do=1', {
        method: 'POST',
        body: { token, password },
      })
      expect(done.status).toBe(200)
      expect((await attempt(member.email, password, 221)).status).toBe(200)
    })
  })

  it('limits sign-up per client', async () => {
    for (let i = 0; i < LIMITS.signup.limit; i++) {
      const { res } = await signUp(api.app, signupBody(), { headers: ip(10) })
      expect(res.status).toBe(200)
    }
    const { res, cookie } = await signUp(api.app, signupBody(), { headers: ip(10) })
    await expectLimited(res)
    expect(cookie).toBeUndefined()
    expect((await signUp(api.app, signupBody(), { headers: ip(11) })).res.status).toBe(200)
  })

  it('limits validate_email per client', async () => {
    const check = (n: number) =>
      send(api.app, `/api/validate_email.php?email=${freshEmail()}`, { headers: ip(n) })
    for (let i = 0; i < LIMITS.validate_email.limit; i++) expect((await check(20)).status).toBe(200)
    await expectLimited(await check(20))
    expect((await check(21)).status).toBe(200)
  })

  it('limits reset requests per address (whether registered or not) and per client', async () => {
    const member = await addMember(database.db, { email: freshEmail('reset') })
    const request = (email: string, n: number) =>
      send(api.app, '/api/reset_password.php', { method: 'POST', body: { email }, headers: ip(n) })
    for (const email of [member.email, freshEmail('nobody')]) {
      for (let i = 0; i < LIMITS.reset.limit; i++)
        expect((await request(email, 30 + i)).status).toBe(200)
      await expectLimited(await request(email, 40))
    }
    expect((await request(freshEmail('fresh'), 41)).status).toBe(200)
    // One client asking for many addresses meets the per-client limit.
    for (let i = 0; i < LIMITS.reset_ip.limit; i++) await request(freshEmail('spray'), 50)
    await expectLimited(await request(freshEmail('spray'), 50))
  })
})
