// Sign-up (POST /api/user.php?new=1), the email check and activation
// (spec §3, §5, §8) on both databases.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountTokens, members, siteSettings } from '../../db/schema/index.ts'
import {
  AccountUser,
  ActivateStatusResponse,
  ApiError,
  DateOfBirthError,
  SignupResponse,
  ValidateEmailResponse,
} from '../contract/index.ts'
import {
  type AccountsApi,
  accountsApi,
  freshEmail,
  ip,
  mailsTo,
  signUp,
  signUpOk,
  signupBody,
  tokenIn,
} from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send, setCookie } from '../test/http.ts'
import { addMember } from '../test/seed.ts'

describeEngines('sign-up on %s', (engine) => {
  let database: TestDatabase
  let api: AccountsApi
  // Each test signs up from its own address: the sign-up limit is per client.
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

  const getUser = async (cookie: string) => {
    const res = await send(api.app, '/api/user.php', { cookie })
    expect(res.status).toBe(200)
    return AccountUser.parse(await res.json())
  }

  describe('POST /api/user.php?new=1', () => {
    it('creates the account, signs it in with a safe cookie and answers received', async () => {
      const body = signupBody({ email: '  New.Person@Example.com ', name: '' })
      const { res, cookie } = await signUp(api.app, body, fromNewClient())
      expect(res.status).toBe(200)
      expect(SignupResponse.parse(await res.json())).toEqual({ status: 'received' })
      const attributes = setCookie(res)!.split(/;\s*/).slice(1)
      expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/']))
      // Plain-http localhost: Secure would make the browser drop it.
      expect(attributes).not.toContain('Secure')
      const user = await getUser(cookie!)
      expect(user.email).toBe('new.person@example.com')
      // Spec §5: an empty name defaults to the part before @.
      expect(user.profile.name).toBe('New.Person')
      expect(user.profile.country).toBe('NL')
      expect(user.account).toMatchObject({
        activated: false,
        last_signup_step: 0,
        missing: ['gender', 'date_of_birth'],
        timezone: 'Europe/Amsterdam',
        pending_email: null,
      })
    })

    it('sets a Secure cookie on an https site', async () => {
      const { res } = await signUp(api.app, signupBody(), {
        base: 'https://amora.example',
        ...fromNewClient(),
      })
      expect(res.status).toBe(200)
      expect(setCookie(res)!.split(/;\s*/)).toEqual(
        expect.arrayContaining(['HttpOnly', 'Secure', 'SameSite=Lax', 'Path=/']),
      )
    })

    it('takes gender, date of birth and profile fields from the payload', async () => {
      const cookie = await signUpOk(
        api.app,
        signupBody({
          country: 'be',
          language: 'nl',
          profile: {
            gender: 'female',
            date_of_birth: '1990-04-30',
            profile_fields: { smoking: 'no' },
          },
          trafficsource: { network: 'aff1', sub1: 'x' },
        }),
        fromNewClient(),
      )
      const user = await getUser(cookie)
      expect(user.profile).toMatchObject({
        gender: 'female',
        date_of_birth: '1990-04-30',
        country: 'BE',
        language: 'nl',
      })
      expect(user.account.missing).toEqual([])
      expect(user.account.profile_fields).toEqual({ smoking: 'no' })
    })

    it('mails a single-use activation link in the member language, text and HTML', async () => {
      const email = freshEmail()
      await signUpOk(api.app, signupBody({ email, language: 'nl' }), fromNewClient())
      await api.mailer.idle()
      const [mail] = await mailsTo(database.db, email)
      expect(mail).toMatchObject({ kind: 'activate', error: null })
      expect(mail!.sentAt).not.toBeNull()
      expect(mail!.subject).toContain('Activeer')
      expect(mail!.html).toContain('lang="nl"')
      expect(mail!.text).toMatch(/http:\/\/localhost\/api\/activate\.php\?token=[\w-]{43}/)
      // Only a hash of the token is stored.
      const token = tokenIn(mail!.text, '/api/activate.php')
      const stored = await database.db.select().from(accountTokens)
      expect(stored.some((t) => t.tokenHash === token)).toBe(false)
    })

    it('answers a taken address exactly like a new one, without a session, and tells the owner', async () => {
      const owner = await addMember(database.db, {
        email: freshEmail('owner'),
        activatedAt: new Date(),
      })
      const fresh = await signUp(api.app, signupBody(), fromNewClient())
      const taken = await signUp(
        api.app,
        signupBody({ email: owner.email.toUpperCase() }),
        fromNewClient(),
      )
      expect(taken.res.status).toBe(fresh.res.status)
      expect(await taken.res.json()).toEqual(await fresh.res.json())
      expect(taken.cookie).toBeUndefined()
      await api.mailer.idle()
      const mails = await mailsTo(database.db, owner.email)
      expect(mails.map((m) => m.kind)).toEqual(['signup_exists'])
      // The owner's password and account are untouched.
      const [row] = await database.db.select().from(members).where(eq(members.id, owner.id))
      expect(row!.passwordHash).toBe(owner.passwordHash)
    })

    it('says nothing to the owner of a deleted account', async () => {
      const gone = await addMember(database.db, {
        email: freshEmail('gone'),
        deletedAt: new Date(),
      })
      const { res, cookie } = await signUp(
        api.app,
        signupBody({ email: gone.email }),
        fromNewClient(),
      )
      expect(res.status).toBe(200)
      expect(cookie).toBeUndefined()
      expect(await mailsTo(database.db, gone.email)).toEqual([])
    })

    it.each([
      ['an invalid email', { email: 'not-an-email' }, 'email'],
      ['a name starting with @', { name: '@alice' }, 'name'],
      ['a name over 150 characters', { name: 'a'.repeat(151) }, 'name'],
      ['an empty password', { password: '' }, 'password'],
      ['an oversized password', { password: 'x'.repeat(1025) }, 'password'],
      ['an unknown time zone', { timezone: 'Mars/Olympus' }, 'timezone'],
      ['a malformed country', { country: 'NLD' }, 'country'],
      ['an unknown country', { country: 'ZZ' }, 'country'],
      ['an unknown language', { language: 'xx' }, 'language'],
    ])('refuses %s with 400 naming the field', async (_, over, field) => {
      const { res, cookie } = await signUp(api.app, { ...signupBody(), ...over }, fromNewClient())
      expect(res.status).toBe(400)
      expect(ApiError.parse(await res.json())).toMatchObject({ error: 'invalid_input', field })
      expect(cookie).toBeUndefined()
    })

    it('refuses a name equal to the email (spec §5)', async () => {
      const email = freshEmail()
      const { res } = await signUp(
        api.app,
        signupBody({ email, name: email.toUpperCase() }),
        fromNewClient(),
      )
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ field: 'name' })
    })

    it.each([
      ['2000-02-30'],
      ['1990-00-10'],
      ['1990-05-00'],
      ['0000-01-01'],
      ['1990-13-01'],
      ['01-01-1990'],
      [new Date(Date.now() - 17 * 365.25 * 86_400_000).toISOString().slice(0, 10)],
    ])(
      'refuses the date of birth %s with profile.date_of_birth_error and min_age 18',
      async (dob) => {
        const { res } = await signUp(
          api.app,
          signupBody({ profile: { date_of_birth: dob } }),
          fromNewClient(),
        )
        expect(res.status).toBe(400)
        expect(DateOfBirthError.parse(await res.json())).toMatchObject({
          error: 'profile.date_of_birth_error',
          field: 'profile.date_of_birth',
          min_age: 18,
        })
      },
    )

    it('refuses a body that is not JSON with 400', async () => {
      const res = await send(api.app, '/api/user.php?new=1', {
        method: 'POST',
        body: '{nope',
        ...fromNewClient(),
      })
      expect(res.status).toBe(400)
    })

    it('refuses a sign-up posted from another origin', async () => {
      const { res, cookie } = await signUp(api.app, signupBody(), {
        origin: 'https://evil.example',
        ...fromNewClient(),
      })
      expect(res.status).toBe(403)
      expect(cookie).toBeUndefined()
    })

    it('answers 403 signups_closed when the settings close sign-ups (spec §5)', async () => {
      const db = database.db
      try {
        await db.insert(siteSettings).values({ key: 'signups', value: 'other' })
        const closed = await signUp(api.app, signupBody(), fromNewClient())
        expect(closed.res.status).toBe(403)
        expect(await closed.res.json()).toMatchObject({ error: 'signups_closed' })
        expect(closed.cookie).toBeUndefined()

        await db
          .update(siteSettings)
          .set({ value: 'with_trafficsource' })
          .where(eq(siteSettings.key, 'signups'))
        const without = await signUp(api.app, signupBody(), fromNewClient())
        expect(without.res.status).toBe(403)
        const withNetwork = await signUp(
          api.app,
          signupBody({ trafficsource: { network: 'partner' } }),
          fromNewClient(),
        )
        expect(withNetwork.res.status).toBe(200)
      } finally {
        await db.delete(siteSettings).where(eq(siteSettings.key, 'signups'))
      }
    })
  })

  describe('GET /api/validate_email.php', () => {
    const check = async (email: string) => {
      const res = await send(api.app, `/api/validate_email.php?email=${encodeURIComponent(email)}`)
      expect(res.status).toBe(200)
      return ValidateEmailResponse.parse(await res.json())
    }

    it('answers new, active, not_confirmed, deleted and invalid (spec §3)', async () => {
      const active = await addMember(database.db, {
        email: freshEmail('a'),
        activatedAt: new Date(),
      })
      const pending = await addMember(database.db, { email: freshEmail('p') })
      const deleted = await addMember(database.db, {
        email: freshEmail('d'),
        deletedAt: new Date(),
      })
      expect((await check(freshEmail())).status).toBe('new')
      expect((await check(active.email)).status).toBe('active')
      expect((await check(pending.email)).status).toBe('not_confirmed')
      expect((await check(deleted.email)).status).toBe('deleted')
      for (const bad of ['', 'plain', 'a@', '@b.c', 'a b@c.d', 'x'.repeat(300)]) {
        expect((await check(bad)).status, bad).toBe('invalid')
      }
    })

    it('echoes the address as sent and as read', async () => {
      const result = await check(' Some.One@Example.COM ')
      expect(result).toEqual({
        status: 'new',
        token: null,
        email: 'some.one@example.com',
        request_email: ' Some.One@Example.COM ',
      })
    })
  })

  describe('activation', () => {
    const activationLink = async (email: string) => {
      await api.mailer.idle()
      const [mail] = await mailsTo(database.db, email)
      return tokenIn(mail!.text, '/api/activate.php')
    }
    const follow = (token: string) =>
      send(api.app, `/api/activate.php?token=${encodeURIComponent(token)}`)

    it('reports delivery of the activation mail to the signed-in member (spec §4 step 6)', async () => {
      const cookie = await signUpOk(api.app, signupBody(), fromNewClient())
      await api.mailer.idle()
      const res = await send(api.app, '/api/activate.php', { cookie })
      expect(ActivateStatusResponse.parse(await res.json())).toEqual({
        delivered: true,
        activated: false,
      })
      expect((await send(api.app, '/api/activate.php')).status).toBe(403)
    })

    it('activates once through the link, then sends a reused link to /activate/error', async () => {
      const body = signupBody()
      const cookie = await signUpOk(api.app, body, fromNewClient())
      const token = await activationLink(body.email)
      const first = await follow(token)
      expect(first.status).toBe(302)
      expect(first.headers.get('location')).toBe('/activate/done')
      expect((await getUser(cookie)).account.activated).toBe(true)
      const again = await follow(token)
      expect(again.headers.get('location')).toBe('/activate/error')
      const status = await send(api.app, `/api/validate_email.php?email=${body.email}`)
      expect(await status.json()).toMatchObject({ status: 'active' })
    })

    it('sends an expired or unknown token to /activate/error', async () => {
      const body = signupBody()
      const cookie = await signUpOk(api.app, body, fromNewClient())
      const token = await activationLink(body.email)
      const { id } = (await getUser(cookie)).profile
      await database.db
        .update(accountTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(accountTokens.memberId, id))
      expect((await follow(token)).headers.get('location')).toBe('/activate/error')
      expect((await follow('A'.repeat(43))).headers.get('location')).toBe('/activate/error')
      expect((await follow('')).headers.get('location')).toBe('/activate/error')
      expect((await getUser(cookie)).account.activated).toBe(false)
    })

    it('mails a new link on request and voids the old one', async () => {
      const body = signupBody()
      const cookie = await signUpOk(api.app, body, fromNewClient())
      const old = await activationLink(body.email)
      const res = await send(api.app, '/api/activate.php', { method: 'POST', cookie })
      expect(await res.json()).toEqual({ status: 'sent' })
      await api.mailer.idle()
      const mails = await mailsTo(database.db, body.email)
      expect(mails).toHaveLength(2)
      expect((await follow(old)).headers.get('location')).toBe('/activate/error')
      const fresh = tokenIn(mails[1]!.text, '/api/activate.php')
      expect((await follow(fresh)).headers.get('location')).toBe('/activate/done')
    })
  })
})
