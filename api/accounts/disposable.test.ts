// Throw-away mail domains are refused at sign-up and by the email check
// (docs/accounts.md, "Throw-away addresses"), on both databases, and the
// refusal says nothing about whether an account exists.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { members } from '../../db/schema/index.ts'
import { ApiError, ValidateEmailResponse } from '../contract/index.ts'
import { type AccountsApi, accountsApi, ip, signUp, signupBody } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { isDisposableEmail } from './disposable.ts'

describe('isDisposableEmail', () => {
  it('knows listed domains, any case, and subdomains of wildcard entries', () => {
    expect(isDisposableEmail('someone@mailinator.com')).toBe(true)
    expect(isDisposableEmail('Someone@YopMail.com ')).toBe(true)
    // mailinator.com is a wildcard entry: every subdomain is throw-away too.
    expect(isDisposableEmail('x@inbox.mailinator.com')).toBe(true)
  })

  it('lets ordinary providers and look-alikes through', () => {
    expect(isDisposableEmail('someone@gmail.com')).toBe(false)
    expect(isDisposableEmail('someone@example.com')).toBe(false)
    expect(isDisposableEmail('mailinator.com@example.com')).toBe(false)
    expect(isDisposableEmail('no-at-sign')).toBe(false)
  })
})

describeEngines('throw-away addresses on %s', (engine) => {
  let database: TestDatabase
  let api: AccountsApi
  let client = 500
  const fromNewClient = () => ({ headers: ip(++client) })

  beforeAll(async () => {
    database = await freshDatabase(engine)
    api = accountsApi(database.db)
  })
  afterAll(async () => {
    await api?.mailer.idle()
    await database?.close()
  })

  const expectRefused = async (res: Response) => {
    expect(res.status).toBe(422)
    expect(ApiError.parse(await res.json())).toMatchObject({
      error: 'disposable_email',
      field: 'email',
    })
  }

  it('sign-up with a throw-away address is refused at field email and creates nothing', async () => {
    const email = `fresh-${engine}@mailinator.com`
    const { res, cookie } = await signUp(api.app, signupBody({ email }), fromNewClient())
    await expectRefused(res)
    expect(cookie).toBeUndefined()
    const rows = await database.db.select().from(members).where(eq(members.email, email))
    expect(rows).toEqual([])
  })

  it('the email check refuses it the same way whether or not an account has the address', async () => {
    const taken = `taken-${engine}@yopmail.com`
    await addMember(database.db, { email: taken, activatedAt: new Date() })
    const check = (email: string) =>
      send(api.app, `/api/validate_email.php?email=${encodeURIComponent(email)}`, fromNewClient())
    const known = await check(taken)
    const unknown = await check(`nobody-${engine}@yopmail.com`)
    await expectRefused(known.clone())
    await expectRefused(unknown.clone())
    // Equal bodies: no enumeration beyond what the check reported before.
    expect(await known.text()).toBe(await unknown.text())
  })

  it('a mail change to a throw-away address is refused the same way', async () => {
    const m = await addMember(database.db, { email: `mover-${engine}@example.com` })
    const cookie = await login(api.app, m.email, TEST_PASSWORD)
    const res = await send(api.app, '/api/mail_change.php', {
      method: 'POST',
      cookie,
      body: { password: TEST_PASSWORD, email: `mover-${engine}@mailinator.com` },
    })
    await expectRefused(res)
    const [row] = await database.db.select().from(members).where(eq(members.id, m.id))
    expect(row?.email).toBe(`mover-${engine}@example.com`)
  })

  it('an ordinary address is still checked as before', async () => {
    const res = await send(api.app, `/api/validate_email.php?email=someone-${engine}@example.com`)
    expect(res.status).toBe(200)
    expect(ValidateEmailResponse.parse(await res.json()).status).toBe('new')
  })
})
