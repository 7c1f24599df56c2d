// New passwords (sign-up, reset) are refused when they are too easy to guess:
// fewer than 8 characters, on @zxcvbn-ts's common-password list, or the
// email address. 400 weak_password naming `password`, with the reason.
import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { members } from '../../db/schema/index.ts'
import { PASSWORD_MIN, WeakPasswordError } from '../contract/index.ts'
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
import { login, send } from '../test/http.ts'
import { addMember } from '../test/seed.ts'
import { passwordProblem } from './password.ts'

describe('passwordProblem', () => {
  it('pins the minimum length at 8 characters', () => {
    expect(PASSWORD_MIN).toBe(8)
    expect(passwordProblem('seven77')).toBe('too_short')
    expect(passwordProblem('eight888x')).toBeNull()
    // Characters as a person counts them: four emoji are four characters.
    expect(passwordProblem('🦄🦄🦄🦄')).toBe('too_short')
  })

  it.each([
    ['a', 'too_short'],
    ['123456', 'too_short'],
    ['password', 'common'],
    ['PASSWORD', 'common'],
    ['12345678', 'common'],
    ['qwertyuiop', 'common'],
    ['iloveyou', 'common'],
    ['1qaz2wsx', 'common'],
  ] as const)('refuses %s (%s)', (password, reason) => {
    expect(passwordProblem(password)).toBe(reason)
  })

  it('refuses the email address or its local part as the password', () => {
    expect(passwordProblem('anna.jansen@example.com', 'Anna.Jansen@example.com')).toBe(
      'equals_email',
    )
    expect(passwordProblem('anna.jansen', 'anna.jansen@example.com')).toBe('equals_email')
    expect(passwordProblem('correct horse battery staple', 'anna@example.com')).toBeNull()
  })
})

describeEngines('weak passwords on %s', (engine) => {
  let t: TestDatabase
  let api: AccountsApi
  let client = 0

  beforeAll(async () => {
    t = await freshDatabase(engine)
    api = accountsApi(t.db)
  })
  afterAll(async () => {
    await api.mailer.idle()
    await t.close()
  })

  const expectWeak = async (res: Response, reason: WeakPasswordError['reason']) => {
    expect(res.status).toBe(400)
    expect(WeakPasswordError.parse(await res.json())).toMatchObject({
      error: 'weak_password',
      field: 'password',
      reason,
      min_length: 8,
    })
  }

  it.each([
    ['123456', 'too_short'],
    ['password', 'common'],
    ['a', 'too_short'],
  ] as const)(
    'sign-up refuses %s with 400 weak_password and creates nothing',
    async (password, reason) => {
      const body = signupBody({ password })
      const { res, cookie } = await signUp(api.app, body, { headers: ip(++client) })
      await expectWeak(res, reason)
      expect(cookie).toBeUndefined()
      const [row] = await t.db
        .select({ n: count() })
        .from(members)
        .where(eq(members.email, body.email))
      expect(row?.n).toBe(0)
    },
  )

  it('reset refuses a weak password and keeps the link usable', async () => {
    const member = await addMember(t.db, { email: freshEmail('reset-weak') })
    await send(api.app, '/api/reset_password.php', {
      method: 'POST',
      body: { email: member.email },
      headers: ip(++client),
    })
    await api.mailer.idle()
    const [mail] = await mailsTo(t.db, member.email)
    const token = tokenIn(mail!.text, '/reset-password/do')
    const finish = (password: string) =>
      send(api.app, '/api/reset_password.php?do=1', { method: 'POST', body: { token, password } })
    await expectWeak(await finish('password'), 'common')
    await expectWeak(await finish('123456'), 'too_short')
    await expectWeak(await finish(member.email), 'equals_email')
    expect((await finish('a long and new secret')).status).toBe(200)
    await login(api.app, member.email, 'a long and new secret')
  })
})
