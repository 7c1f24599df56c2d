// Staff accounts a fresh installation needs. The console has no sign-up:
// without staff nobody could ever reach it, so the first start creates an
// admin and prints its one-time password and TOTP setup (like a self-hosted
// product's first admin), once. The demo adds one account per role.
import { inArray } from 'drizzle-orm'
import { type Db, withStartLock } from '../../db/client.ts'
import { staff } from '../../db/schema/index.ts'
import type { StaffRole } from '../contract/rules/staff.ts'
import { createStaff, staffCount } from './staff.ts'
import { totpUri } from './totp.ts'

/** The demo's staff: every role, and two moderators (an appeal goes to another one). */
export const DEMO_STAFF: { email: string; name: string; roles: StaffRole[] }[] = [
  { email: 'admin@example.com', name: 'Ada Admin', roles: ['admin'] },
  { email: 'moderator@example.com', name: 'Max Moderator', roles: ['moderator'] },
  { email: 'moderator2@example.com', name: 'Mia Moderator', roles: ['moderator'] },
  { email: 'support@example.com', name: 'Sam Support', roles: ['support'] },
  { email: 'finance@example.com', name: 'Fin Finance', roles: ['finance'] },
]

/**
 * The demo's staff (password `demopassword`, like the demo members; each
 * with its own random TOTP secret made on first start), printed on every
 * start with the secret, so a developer can add it to an authenticator app
 * or get a code with `npm run totp -- <secret>`.
 */
export function ensureDemoStaff(
  db: Db,
  log: (line: string) => void,
  issuer: string,
): Promise<void> {
  // Under the start-up lock: processes starting together make each account
  // once (createStaff's insert skips a taken address anyway) and print the
  // same secrets.
  return withStartLock(db, () => ensureDemoStaffUnlocked(db, log, issuer))
}

async function ensureDemoStaffUnlocked(
  db: Db,
  log: (line: string) => void,
  issuer: string,
): Promise<void> {
  // One read of who exists: later starts hash no password and write nothing.
  const known = async () =>
    new Map(
      (
        await db
          .select({ email: staff.email, secret: staff.totpSecret })
          .from(staff)
          .where(
            inArray(
              staff.email,
              DEMO_STAFF.map((s) => s.email),
            ),
          )
      ).map((r) => [r.email, r.secret]),
    )
  let secrets = await known()
  const missing = DEMO_STAFF.filter((s) => !secrets.has(s.email))
  for (const s of missing) await createStaff(db, { ...s, password: 'demopassword' }, issuer)
  if (missing.length > 0) secrets = await known()
  for (const s of DEMO_STAFF) {
    const secret = secrets.get(s.email)
    if (secret)
      log(
        `start: console login  ${s.email} / demopassword  (${s.roles.join(', ')}) TOTP secret ${secret}`,
      )
  }
  log('start: console at /operator/login; a current code: npm run totp -- <secret>')
}

/**
 * Outside the demo: when no staff account exists, one admin (OPERATOR_EMAIL,
 * default admin@localhost) with a random password, printed once with its
 * TOTP URI. Whoever starts the server first hands it on or changes it.
 */
export function ensureFirstAdmin(
  db: Db,
  email: string,
  log: (line: string) => void,
  issuer: string,
): Promise<void> {
  // "No staff yet" is decided under the start-up lock: of several processes
  // starting at once (each perhaps with another OPERATOR_EMAIL) one makes the
  // admin and the others find it.
  return withStartLock(db, async () => {
    if ((await staffCount(db)) > 0) return
    const made = await createStaff(db, { email, name: 'Admin', roles: ['admin'] }, issuer)
    if (!made) return
    log(`start: first console admin ${email} / ${made.password} (shown once)`)
    log(`start: its TOTP: ${totpUri(made.totpSecret, email, issuer)}`)
  })
}
