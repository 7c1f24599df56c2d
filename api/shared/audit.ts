// The staff audit log's one writer: the console (api/operator/) and
// moderation (api/moderation/) record their actions through it, each inside
// the transaction of the action it records.
import { and, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { auditLog } from '../../db/schema/index.ts'

export interface AuditInput {
  action: string
  targetType?: string
  targetId?: string | number
  reason?: string
  details?: Record<string, unknown>
}

/**
 * Writes one audit row. Call it inside the transaction of the action it
 * records, so the log holds an action exactly when the action happened.
 * `staffId` null: no person acted but the machine, as when
 * `face_match = auto` approves a verification itself.
 */
export async function audit(tx: Db, staffId: number | null, input: AuditInput): Promise<void> {
  await tx.insert(auditLog).values({
    staffId,
    action: input.action,
    targetType: input.targetType ?? null,
    targetId: input.targetId === undefined ? null : String(input.targetId),
    reason: input.reason ?? null,
    details: input.details ?? {},
  })
}

/** When the first audit row of `action` on the target was written, or null if none was. */
export async function auditedAt(
  db: Db,
  input: { action: string; targetType: string; targetId: string | number },
): Promise<Date | null> {
  const [row] = await db
    .select({ at: auditLog.createdAt })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, input.action),
        eq(auditLog.targetType, input.targetType),
        eq(auditLog.targetId, String(input.targetId)),
      ),
    )
    .limit(1)
  return row?.at ?? null
}

/** What a recorded change gives back, and its audit entry (none: nothing changed, nothing recorded). */
export interface Recorded<T> {
  result: T
  audit?: AuditInput | null | undefined
}

/**
 * Runs a change and writes its audit row in ONE transaction: `change` does
 * the work on the transaction and says what to record; a change that throws
 * leaves neither.
 */
export async function recorded<T>(
  db: Db,
  staffId: number,
  change: (tx: Db) => Promise<Recorded<T>>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const { result, audit: entry } = await change(tx)
    if (entry) await audit(tx, staffId, entry)
    return result
  })
}
