// Console sign-in throttling cannot be used to lock staff out (an audit's
// finding: 5 wrong codes from anywhere used to lock a staff account for 15
// minutes). By the members' rules (api/accounts/login-unlock.test.ts): per
// address + account, a ceiling of 100 an hour per account across addresses,
// and a one-time unlock link mailed (once a window) to a staff member whose
// sign-in was refused with 429; unknown addresses get the same answer and no mail.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { staff, staffTokens } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { ApiError } from '../contract/index.ts'
import { LIMITS } from '../http/ratelimit.ts'
import { createMailer } from '../mail/mailer.ts'
import { mailsTo, tokenIn } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'
import { addStaff, type TestStaff } from '../test/staff.ts'
import { totpCode } from './totp.ts'

describeEngines('console sign-in throttling and the unlock link on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  const mailer = createMailer()

  beforeAll(async () => {
    t = await freshDatabase(engine)
    // Behind a trusted proxy, so a test can play several client addresses.
    app = createApi({ db: t.db, accounts: { mailer, trustProxy: true } })
  })
  afterAll(async () => {
    await mailer.idle()
    await t?.close()
  })

  /** A sign-in from client address 198.51.100.<n>; a wrong code unless one is given. */
  const attempt = (email: string, password: string, n: number, code = '000000') =>
    send(app, '/api/operator/login.php', {
      method: 'POST',
      body: { email, password, code },
      headers: { 'x-forwarded-for': `198.51.100.${n}` },
    })
  /** The right password and the current code (a code works once: `at` picks the step). */
  const signIn = (s: TestStaff, n: number, at = Date.now()) =>
    attempt(s.email, s.password, n, totpCode(s.secret, at))
  const unlock = (token: string) =>
    send(app, '/api/operator/unlock.php', { method: 'POST', body: { token } })
  const unlockMails = async (email: string) =>
    (await mailsTo(t.db, email)).filter((m) => m.kind === 'staff_unlock')
  const expectLimited = async (res: Response) => {
    expect(res.status).toBe(429)
    expect(ApiError.parse(await res.json()).error).toBe('rate_limited')
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(res.headers.getSetCookie()).toEqual([])
  }

  it('lets a staff member in from their own address after 30 failed sign-ins from other addresses', async () => {
    const s = await addStaff(t.db, ['moderator'])
    for (let n = 1; n <= 20; n++) expect((await attempt(s.email, 'guess', n)).status).toBe(401)
    for (let i = 0; i < LIMITS.staff_login.limit; i++)
      expect((await attempt(s.email, s.password, 21)).status).toBe(401)
    await expectLimited(await attempt(s.email, s.password, 21))
    expect((await signIn(s, 99)).status).toBe(200)
  })

  it('slows down one address (the 11th failure is 429 with Retry-After) and mails one unlock link that works once', async () => {
    const s = await addStaff(t.db, ['support'], 'Sam Support')
    for (let i = 0; i < LIMITS.staff_login.limit; i++)
      expect((await attempt(s.email, 'wrong', 30)).status).toBe(401)
    const eleventh = await attempt(s.email, 'wrong', 30)
    await expectLimited(eleventh)
    expect(Number(eleventh.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60)
    // Refused again, even with password and code: still one mail.
    for (let i = 0; i < 3; i++) await expectLimited(await signIn(s, 30))
    const sent = await unlockMails(s.email)
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ memberId: null, to: s.email })
    expect(sent[0]!.text).toContain('Sam Support')
    const token = tokenIn(sent[0]!.text, '/operator/unlock')
    const [stored] = await t.db.select().from(staffTokens).where(eq(staffTokens.staffId, s.id))
    expect(stored!.tokenHash).not.toContain(token)
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(3_600_000)

    const first = await unlock(token)
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ status: 'done' })
    expect(first.headers.getSetCookie(), 'the link signs nobody in').toEqual([])
    // From the slowed-down address, at once (the next time step: codes work once).
    expect((await signIn(s, 30, Date.now() + 30_000)).status).toBe(200)
    const second = await unlock(token)
    expect(second.status).toBe(400)
    expect(ApiError.parse(await second.json())).toMatchObject({
      error: 'invalid_token',
      field: 'token',
    })
  })

  it('holds 100 failures an hour across addresses; past them the unlock link lets the staff member in', async () => {
    const s = await addStaff(t.db, ['finance'])
    for (let n = 0; n < 100; n++) {
      const res = await attempt(s.email, 'guess', 100 + Math.floor(n / 10))
      expect(res.status, `attempt ${n + 1}`).toBe(401)
    }
    const over = await signIn(s, 120)
    await expectLimited(over)
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(3600)
    const [mail, ...more] = await unlockMails(s.email)
    expect(more).toEqual([])
    expect((await unlock(tokenIn(mail!.text, '/operator/unlock'))).status).toBe(200)
    expect((await signIn(s, 120, Date.now() + 30_000)).status).toBe(200)
  })

  it('refuses an expired unlock link', async () => {
    const s = await addStaff(t.db, ['moderator'])
    for (let i = 0; i <= LIMITS.staff_login.limit; i++) await attempt(s.email, 'wrong', 50)
    const [mail] = await unlockMails(s.email)
    await t.db
      .update(staffTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(staffTokens.staffId, s.id))
    const res = await unlock(tokenIn(mail!.text, '/operator/unlock'))
    expect(res.status).toBe(400)
    expect(ApiError.parse(await res.json()).error).toBe('invalid_token')
    await expectLimited(await signIn(s, 50))
  })

  it('answers an unknown or disabled account like a live one, and mails neither', async () => {
    const live = await addStaff(t.db, ['support'])
    const disabled = await addStaff(t.db, ['support'])
    await t.db.update(staff).set({ disabledAt: new Date() }).where(eq(staff.id, disabled.id))
    const ghost = `ghost-staff-${process.pid}@example.com`
    const answers: { status: number; body: unknown; cookies: string[] }[] = []
    for (const [i, email] of [live.email, disabled.email, ghost].entries()) {
      for (let k = 0; k < LIMITS.staff_login.limit; k++) await attempt(email, 'wrong', 60 + i)
      const res = await attempt(email, 'wrong', 60 + i)
      answers.push({
        status: res.status,
        body: await res.json(),
        cookies: res.headers.getSetCookie(),
      })
    }
    expect(answers[0]!.status).toBe(429)
    expect(answers[1]).toEqual(answers[0])
    expect(answers[2]).toEqual(answers[0])
    expect(await unlockMails(live.email)).toHaveLength(1)
    expect(await mailsTo(t.db, disabled.email)).toEqual([])
    expect(await mailsTo(t.db, ghost)).toEqual([])
  })
})
