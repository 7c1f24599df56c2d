// The member's own account: PUT and DELETE /api/user.php, password reset and
// mail change (spec §3–§5, §8) on both databases.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountTokens, members, sessions } from '../../db/schema/index.ts'
import { AccountUser, ApiError, MailChangePending } from '../contract/index.ts'
import {
  type AccountsApi,
  accountsApi,
  freshEmail,
  ip,
  mailsTo,
  signUpOk,
  signupBody,
  tokenIn,
} from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send, sessionToken } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'

describeEngines('own account on %s', (engine) => {
  let database: TestDatabase
  let api: AccountsApi
  let client = 0
  const fromNewClient = () => ({ headers: ip(++client) })

  beforeAll(async () => {
    database = await freshDatabase(engine)
    api = accountsApi(database.db)
  })
  afterAll(async () => {
    await api?.mailer.idle()
    await database?.close()
  })

  const put = (cookie: string, body: unknown) =>
    send(api.app, '/api/user.php', { method: 'PUT', cookie, body })
  const newMember = async () => {
    const member = await addMember(database.db, { email: freshEmail('m'), activatedAt: new Date() })
    return { member, cookie: await login(api.app, member.email, TEST_PASSWORD) }
  }
  const expectError = async (res: Response, status: number, error: string, field?: string) => {
    expect(res.status).toBe(status)
    const body = ApiError.parse(await res.json())
    expect(body.error).toBe(error)
    if (field) expect(body.field).toBe(field)
  }

  describe('PUT /api/user.php', () => {
    it('sets the location (spec §4 step 3); country alone clears region and city', async () => {
      const cookie = await signUpOk(api.app, signupBody(), fromNewClient())
      const res = await put(cookie, { country: 'nl', countryregion: 'NL-UT', city: ' Utrecht ' })
      expect(res.status).toBe(200)
      expect(AccountUser.parse(await res.json()).profile).toMatchObject({
        country: 'NL',
        countryregion: 'NL-UT',
        city: 'Utrecht',
      })
      const moved = AccountUser.parse(await (await put(cookie, { country: 'BE' })).json())
      expect(moved.profile).toMatchObject({ country: 'BE', countryregion: null, city: null })
    })

    it.each([
      ['an unknown country', { country: 'ZZ' }, 'country'],
      ['a region of another country', { country: 'BE', countryregion: 'NL-UT' }, 'countryregion'],
      ['a city over 255 characters', { country: 'NL', city: 'x'.repeat(256) }, 'city'],
      ['a region without a country', { countryregion: 'NL-UT' }, 'country'],
      ['an unknown key', { nickname: 'x' }, ''],
      ['an unknown gender', { profile: { gender: 'other' } }, 'profile.gender'],
      ['a name starting with @', { profile: { name: '@x' } }, 'profile.name'],
      [
        'a value outside allowed_values',
        { profile: { profile_fields: { smoking: 'lots' } } },
        'profile.profile_fields.smoking',
      ],
      [
        'an unknown profile field',
        { profile: { profile_fields: { shoe_size: '42' } } },
        'profile.profile_fields.shoe_size',
      ],
      ['an unknown notes field', { profile: { notes: { diary: 'x' } } }, 'profile.notes.diary'],
      ['a signup step past 7', { profile: { lastSignupStep: 8 } }, 'profile.lastSignupStep'],
    ])('refuses %s with 400', async (_, body, field) => {
      const { cookie } = await newMember()
      const res = await put(cookie, body)
      expect(res.status).toBe(400)
      const error = ApiError.parse(await res.json())
      expect(error.error).toBe('invalid_input')
      if (field) expect(error.field).toBe(field)
    })

    it('refuses a date of birth under 18 with min_age', async () => {
      const { cookie } = await newMember()
      const today = new Date().toISOString().slice(0, 10)
      const res = await put(cookie, { profile: { date_of_birth: today } })
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({
        error: 'profile.date_of_birth_error',
        field: 'profile.date_of_birth',
        min_age: 18,
      })
    })

    it('saves the profile steps (spec §4 steps 4 and 5) and only moves the step forward', async () => {
      const cookie = await signUpOk(api.app, signupBody(), fromNewClient())
      await put(cookie, { profile: { lastSignupStep: 4 } })
      const res = await put(cookie, {
        profile: {
          gender: 'male',
          date_of_birth: '1985-06-15',
          profile_fields: { relationship: 'single', height: '180_189' },
          lastSignupStep: 5,
        },
      })
      const user = AccountUser.parse(await res.json())
      expect(user.profile).toMatchObject({ gender: 'male', date_of_birth: '1985-06-15' })
      expect(user.account).toMatchObject({
        missing: [],
        last_signup_step: 5,
        profile_fields: { relationship: 'single', height: '180_189' },
      })
      const notes = await put(cookie, {
        profile: {
          notes: { personal: ' Hello there ', looking_for: 'Someone kind' },
          profile_fields: { height: null },
          lastSignupStep: 2,
        },
      })
      const after = AccountUser.parse(await notes.json())
      expect(after.profile.personal).toBe('Hello there')
      expect(after.account.notes).toEqual({ looking_for: 'Someone kind' })
      expect(after.account.profile_fields).toEqual({ relationship: 'single' })
      expect(after.account.last_signup_step).toBe(5)
    })

    it('answers 403 without a session', async () => {
      await expectError(await put('sid=nope', { country: 'NL' }), 403, 'not_logged_in')
    })
  })

  describe('POST /api/user.php?push=1', () => {
    const subscription = (endpoint: string) => ({
      subscription: { endpoint, keys: { p256dh: 'BNcR-key', auth: 'auth-secret' } },
    })
    it('adds the browser subscription to the account (spec §4 after sign-up)', async () => {
      const cookie = await signUpOk(api.app, signupBody(), fromNewClient())
      const endpoint = `https://push.example/${freshEmail()}`
      const res = await send(api.app, '/api/user.php?push=1', {
        method: 'POST',
        cookie,
        body: subscription(endpoint),
      })
      expect(await res.json()).toEqual({ status: 'subscribed' })
      const user = AccountUser.parse(
        await (await send(api.app, '/api/user.php', { cookie })).json(),
      )
      expect(user.account.has_push_subscription).toBe(true)
    })
    it('refuses a non-https endpoint (400) and a visitor without a session (403)', async () => {
      const { cookie } = await newMember()
      const bad = await send(api.app, '/api/user.php?push=1', {
        method: 'POST',
        cookie,
        body: subscription('http://push.example/x'),
      })
      await expectError(bad, 400, 'invalid_input', 'subscription.endpoint')
      const anon = await send(api.app, '/api/user.php?push=1', {
        method: 'POST',
        body: subscription('https://push.example/y'),
      })
      expect(anon.status).toBe(403)
    })
  })

  describe('DELETE /api/user.php', () => {
    it('keeps everything on a wrong password (401, field password)', async () => {
      const { member, cookie } = await newMember()
      const res = await send(api.app, '/api/user.php', {
        method: 'DELETE',
        cookie,
        body: { password: 'wrong' },
      })
      await expectError(res, 401, 'wrong_password', 'password')
      expect((await send(api.app, '/api/user.php', { cookie })).status).toBe(200)
      const [row] = await database.db.select().from(members).where(eq(members.id, member.id))
      expect(row!.deletedAt).toBeNull()
    })

    it('deletes with the password: sessions end, the address reports deleted, login fails', async () => {
      const { member, cookie } = await newMember()
      const other = await login(api.app, member.email, TEST_PASSWORD)
      const res = await send(api.app, '/api/user.php', {
        method: 'DELETE',
        cookie,
        body: { password: TEST_PASSWORD },
      })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ status: 'deleted' })
      expect(sessionToken(res)).toBe('')
      for (const c of [cookie, other]) {
        expect((await send(api.app, '/api/user.php', { cookie: c })).status).toBe(403)
      }
      const live = await database.db.select().from(sessions).where(eq(sessions.memberId, member.id))
      expect(live).toEqual([])
      const check = await send(api.app, `/api/validate_email.php?email=${member.email}`)
      expect(await check.json()).toMatchObject({ status: 'deleted' })
      const again = await send(api.app, '/api/login.php', {
        method: 'POST',
        body: { email: member.email, password: TEST_PASSWORD },
      })
      expect(again.status).toBe(401)
    })
  })

  describe('password reset', () => {
    const request = (email: string, n = ++client) =>
      send(api.app, '/api/reset_password.php', {
        method: 'POST',
        body: { email },
        headers: ip(n),
      })
    const resetLink = async (email: string) => {
      await api.mailer.idle()
      const mails = await mailsTo(database.db, email)
      expect(mails.at(-1)?.kind).toBe('reset')
      return tokenIn(mails.at(-1)!.text, '/reset-password/do')
    }
    const finish = (token: string, password: string) =>
      send(api.app, '/api/reset_password.php?do=1', {
        method: 'POST',
        body: { token, password },
      })

    it('answers a registered and an unknown address identically, and mails only the first', async () => {
      const { member } = await newMember()
      const unknown = freshEmail('nobody')
      const known = await request(member.email)
      const missing = await request(unknown)
      expect(known.status).toBe(200)
      expect(missing.status).toBe(known.status)
      expect(await missing.json()).toEqual(await known.json())
      expect(missing.headers.get('set-cookie')).toBe(known.headers.get('set-cookie'))
      await api.mailer.idle()
      expect(await mailsTo(database.db, unknown)).toEqual([])
      expect((await mailsTo(database.db, member.email)).map((m) => m.kind)).toEqual(['reset'])
    })

    it('sets the new password, ends every other session and refuses the link a second time', async () => {
      const { member, cookie: phone } = await newMember()
      const laptop = await login(api.app, member.email, TEST_PASSWORD)
      await request(member.email)
      const token = await resetLink(member.email)
      const res = await finish(token, 'a brand new secret')
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ status: 'done' })
      const fresh = `sid=${sessionToken(res)}`
      for (const c of [phone, laptop]) {
        expect((await send(api.app, '/api/user.php', { cookie: c })).status).toBe(403)
      }
      expect((await send(api.app, '/api/user.php', { cookie: fresh })).status).toBe(200)
      await expectError(await finish(token, 'yet another'), 400, 'invalid_token', 'token')
      const old = await send(api.app, '/api/login.php', {
        method: 'POST',
        body: { email: member.email, password: TEST_PASSWORD },
      })
      expect(old.status).toBe(401)
      await login(api.app, member.email, 'a brand new secret')
    })

    it('refuses an expired or unknown token', async () => {
      const { member } = await newMember()
      await request(member.email)
      const token = await resetLink(member.email)
      await database.db
        .update(accountTokens)
        .set({ expiresAt: new Date(Date.now() - 1) })
        .where(eq(accountTokens.memberId, member.id))
      await expectError(await finish(token, 'x'), 400, 'invalid_token', 'token')
      await expectError(await finish('B'.repeat(43), 'x'), 400, 'invalid_token', 'token')
      await expectError(await finish('', 'x'), 400, 'invalid_input', 'token')
      await login(api.app, member.email, TEST_PASSWORD)
    })

    it('activates an unconfirmed account: the link proved the mailbox', async () => {
      const body = signupBody()
      await signUpOk(api.app, body, fromNewClient())
      await request(body.email)
      const res = await finish(await resetLink(body.email), 'new secret')
      expect(res.status).toBe(200)
      const check = await send(api.app, `/api/validate_email.php?email=${body.email}`)
      expect(await check.json()).toMatchObject({ status: 'active' })
    })
  })

  describe('mail change', () => {
    const change = (cookie: string, body: unknown) =>
      send(api.app, '/api/mail_change.php', { method: 'POST', cookie, body })
    const apply = (token: string) =>
      send(api.app, '/api/mail_change.php?do=1', { method: 'POST', body: { token } })

    it('refuses a wrong password (401) and the current address (400)', async () => {
      const { member, cookie } = await newMember()
      await expectError(
        await change(cookie, { password: 'wrong', email: freshEmail() }),
        401,
        'wrong_password',
        'password',
      )
      await expectError(
        await change(cookie, { password: TEST_PASSWORD, email: member.email.toUpperCase() }),
        400,
        'same_email',
        'email',
      )
      await expectError(
        await change(cookie, { password: TEST_PASSWORD, email: 'nope' }),
        400,
        'invalid_input',
        'email',
      )
      expect((await change('sid=x', { password: TEST_PASSWORD, email: freshEmail() })).status).toBe(
        403,
      )
    })

    it('changes the address only when the link is followed, and tells the old address', async () => {
      const { member, cookie } = await newMember()
      const target = freshEmail('moved')
      const res = await change(cookie, { password: TEST_PASSWORD, email: target })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ status: 'sent' })
      await api.mailer.idle()
      const [confirm] = await mailsTo(database.db, target)
      const [notice] = await mailsTo(database.db, member.email)
      expect(confirm!.kind).toBe('mail_change_confirm')
      expect(notice!.kind).toBe('mail_change_notice')
      expect(notice!.text).toContain('http://localhost/notifications#email-change-incorrect')
      expect(notice!.text).toContain(target)
      // Not yet: the old address still logs in, the new one is pending.
      const pending = await send(api.app, '/api/mail_change.php', { cookie })
      expect(MailChangePending.parse(await pending.json())).toEqual({ pending_email: target })
      // The member's own account says so too (GET /api/user.php builds it in one statement).
      const waiting = AccountUser.parse(
        await (await send(api.app, '/api/user.php', { cookie })).json(),
      )
      expect(waiting.email).toBe(member.email)
      expect(waiting.account.pending_email).toBe(target)
      await login(api.app, member.email, TEST_PASSWORD)

      const token = tokenIn(confirm!.text, '/mail-change/do')
      const done = await apply(token)
      expect(done.status).toBe(200)
      expect(await done.json()).toEqual({ status: 'done', email: target })
      await login(api.app, target, TEST_PASSWORD)
      const user = AccountUser.parse(
        await (await send(api.app, '/api/user.php', { cookie })).json(),
      )
      expect(user.email).toBe(target)
      expect(user.account.pending_email).toBeNull()
      await expectError(await apply(token), 400, 'invalid_token', 'token')
    })

    it('can be called off from /notifications#email-change-incorrect', async () => {
      const { cookie } = await newMember()
      const target = freshEmail('typo')
      await change(cookie, { password: TEST_PASSWORD, email: target })
      await api.mailer.idle()
      const [confirm] = await mailsTo(database.db, target)
      const off = await send(api.app, '/api/mail_change.php', { method: 'DELETE', cookie })
      expect(await off.json()).toEqual({ pending_email: null })
      await expectError(
        await apply(tokenIn(confirm!.text, '/mail-change/do')),
        400,
        'invalid_token',
      )
    })

    it('answers a taken address like a free one and tells its owner instead', async () => {
      const { cookie } = await newMember()
      const { member: owner } = await newMember()
      const res = await change(cookie, { password: TEST_PASSWORD, email: owner.email })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ status: 'sent' })
      await api.mailer.idle()
      expect((await mailsTo(database.db, owner.email)).map((m) => m.kind)).toEqual([
        'mail_change_taken',
      ])
    })

    it('answers 409 when the address was taken between request and link', async () => {
      const { member, cookie } = await newMember()
      const target = freshEmail('race')
      await change(cookie, { password: TEST_PASSWORD, email: target })
      await api.mailer.idle()
      const [confirm] = await mailsTo(database.db, target)
      await addMember(database.db, { email: target })
      const token = tokenIn(confirm!.text, '/mail-change/do')
      await expectError(await apply(token), 409, 'email_taken', 'email')
      const [row] = await database.db.select().from(members).where(eq(members.id, member.id))
      expect(row!.email).toBe(member.email)
    })
  })
})
