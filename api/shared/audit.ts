// The staff audit log's one writer: the console (api/operator/) and
// moderation (api/moderation/) record their actions through it, each inside
// the transaction of the action it records.
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
 */
export async function audit(tx: Db, staffId: number, input: AuditInput): Promise<void> {
  await tx.insert(auditLog).values({
    staffId,
    action: input.action,
    targetType: input.targetType ?? null,
    targetId: input.targetId === undefined ? null : String(input.targetId),
    reason: input.reason ?? null,
    details: input.details ?? {},
  })
}
