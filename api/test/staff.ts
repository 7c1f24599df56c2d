// Staff accounts for console tests: made straight in the database, signed in
// through the real sign-in with a code computed from their secret.
import { expect } from 'vitest'
import type { Db } from '../../db/client.ts'
import type { Api } from '../app.ts'
import type { StaffRole } from '../contract/rules/staff.ts'
import { STAFF_COOKIE } from '../operator/auth.ts'
import { createStaff } from '../operator/staff.ts'
import { totpCode } from '../operator/totp.ts'
import { send, setCookie } from './http.ts'

export interface TestStaff {
  id: number
  email: string
  password: string
  secret: string
}

let serial = 0

export async function addStaff(
  db: Db,
  roles: StaffRole[],
  name = roles.join('+'),
): Promise<TestStaff> {
  const email = `staff-${++serial}-${process.pid}@example.com`
  const made = await createStaff(db, { email, name, roles })
  if (!made) throw new Error(`staff ${email} exists`)
  return { id: made.id, email, password: made.password, secret: made.totpSecret }
}

/**
 * Signs in and returns the Cookie header of the console session. A code
 * works once: a second sign-in of the same staff member needs the next time
 * step (`at`), as with a real authenticator app.
 */
export async function staffLogin(app: Api, s: TestStaff, at = Date.now()): Promise<string> {
  const res = await send(app, '/api/operator/login.php', {
    method: 'POST',
    body: { email: s.email, password: s.password, code: totpCode(s.secret, at) },
  })
  expect(res.status, `console sign-in of ${s.email}`).toBe(200)
  const cookie = setCookie(res, STAFF_COOKIE)?.split(';')[0]
  expect(cookie, 'a console session cookie').toBeTruthy()
  return cookie as string
}

/** Signs in a new staff member with these roles: their cookie and account. */
export async function staffSession(app: Api, db: Db, roles: StaffRole[]) {
  const s = await addStaff(db, roles)
  return { ...s, cookie: await staffLogin(app, s) }
}
