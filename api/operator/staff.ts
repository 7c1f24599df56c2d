// Staff accounts: creation (the first admin on start, the demo's staff, an
// admin's new colleague), sign-in with password and TOTP, the list, and the
// audit log's pages.
import { randomBytes } from 'node:crypto'
import { and, desc, eq, lt, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { auditLog, staff } from '../../db/schema/index.ts'
import { dummyHash, hashPassword, verifyPassword } from '../accounts/index.ts'
import type { AuditResponse, StaffEntry } from '../contract/operator/staff.ts'
import type { StaffRole } from '../contract/rules/staff.ts'
import { acceptedStep, newTotpSecret, totpUri } from './totp.ts'

export interface NewStaff {
  email: string
  name: string
  roles: StaffRole[]
  /** Default: 24 random characters, shown once. */
  password?: string
  /** Default: a new random secret. */
  totpSecret?: string
}

export interface CreatedStaff {
  id: number
  password: string
  totpSecret: string
  totpUri: string
}

/** A one-time password: 24 characters of base64url (144 bits). */
const newPassword = () => randomBytes(18).toString('base64url')

/** Creates a staff account; null when the address is taken. */
export async function createStaff(
  db: Db,
  input: NewStaff,
  issuer = 'Operator console',
): Promise<CreatedStaff | null> {
  const password = input.password ?? newPassword()
  const totpSecret = input.totpSecret ?? newTotpSecret()
  const email = input.email.trim().toLowerCase()
  const [row] = await db
    .insert(staff)
    .values({
      email,
      name: input.name,
      passwordHash: await hashPassword(password),
      totpSecret,
      roles: [...new Set(input.roles)],
    })
    .onConflictDoNothing()
    .returning({ id: staff.id })
  if (!row) return null
  return { id: row.id, password, totpSecret, totpUri: totpUri(totpSecret, email, issuer) }
}

export async function staffCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(staff)
  return row?.n ?? 0
}

/**
 * The staff member whose password and current code these are, or null. An
 * unknown address costs the same password check; a code is accepted once
 * (its time step must be above the last one accepted, set in the same
 * statement, so two sign-ins racing with one code cannot both pass).
 */
export async function verifyStaffLogin(
  db: Db,
  email: string,
  password: string,
  code: string,
  at: Date,
): Promise<number | null> {
  const [row] = await db.select().from(staff).where(eq(staff.email, email.trim().toLowerCase()))
  const passwordOk = await verifyPassword(row?.passwordHash ?? (await dummyHash()), password)
  if (!row || !passwordOk || row.disabledAt) return null
  const step = acceptedStep(row.totpSecret, code, at.getTime())
  if (step === null) return null
  const [used] = await db
    .update(staff)
    .set({ totpLastStep: step })
    .where(and(eq(staff.id, row.id), lt(staff.totpLastStep, step)))
    .returning({ id: staff.id })
  return used ? row.id : null
}

const toEntry = (row: typeof staff.$inferSelect): StaffEntry => ({
  id: row.id,
  email: row.email,
  name: row.name,
  roles: row.roles as StaffRole[],
  created_at: row.createdAt.toISOString(),
  disabled: row.disabledAt !== null,
})

export async function listStaff(db: Db): Promise<StaffEntry[]> {
  return (await db.select().from(staff).orderBy(staff.id)).map(toEntry)
}

export async function staffEntry(db: Db, id: number): Promise<StaffEntry | null> {
  const [row] = await db.select().from(staff).where(eq(staff.id, id))
  return row ? toEntry(row) : null
}

export async function updateStaff(
  tx: Db,
  id: number,
  change: { roles?: StaffRole[]; disabled?: boolean },
  at: Date,
): Promise<StaffEntry | null> {
  const set: Partial<typeof staff.$inferInsert> = {}
  if (change.roles) set.roles = [...new Set(change.roles)]
  if (change.disabled !== undefined) set.disabledAt = change.disabled ? at : null
  if (Object.keys(set).length === 0) return staffEntry(tx, id)
  const [row] = await tx.update(staff).set(set).where(eq(staff.id, id)).returning()
  return row ? toEntry(row) : null
}

const AUDIT_PAGE = 50

export async function auditPage(
  db: Db,
  q: { before?: number; staff?: number; target_type?: string; target_id?: string },
): Promise<AuditResponse> {
  const rows = await db
    .select({
      entry: auditLog,
      staff: { id: staff.id, name: staff.name, email: staff.email },
    })
    .from(auditLog)
    // No staff row: the machine acted (api/shared/audit.ts).
    .leftJoin(staff, eq(staff.id, auditLog.staffId))
    .where(
      and(
        q.before ? lt(auditLog.id, q.before) : undefined,
        q.staff ? eq(auditLog.staffId, q.staff) : undefined,
        q.target_type ? eq(auditLog.targetType, q.target_type) : undefined,
        q.target_id ? eq(auditLog.targetId, q.target_id) : undefined,
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(AUDIT_PAGE + 1)
  const page = rows.slice(0, AUDIT_PAGE)
  return {
    entries: page.map(({ entry, staff: who }) => ({
      id: entry.id,
      created_at: entry.createdAt.toISOString(),
      staff: who,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      reason: entry.reason,
      details: entry.details ?? {},
    })),
    next: rows.length > AUDIT_PAGE ? (page.at(-1)?.entry.id ?? null) : null,
  }
}
