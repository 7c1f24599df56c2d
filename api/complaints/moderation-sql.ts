// What moderation needs of the complaints table: the open complaints for its
// queue, one complaint (locked while it is decided), its decision, and the
// counts of the DSA transparency figures.
import { and, asc, eq, gte, isNotNull, isNull, lt, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { complaints } from '../../db/schema/index.ts'

export type ComplaintRow = typeof complaints.$inferSelect

/** Complaints no moderator decided yet, oldest first. */
export const openComplaints = (db: Db, limit: number) =>
  db
    .select()
    .from(complaints)
    .where(isNull(complaints.decidedAt))
    .orderBy(asc(complaints.id))
    .limit(limit)

/** One complaint, or undefined; `lock`: held (FOR UPDATE) until the caller's transaction ends. */
export async function complaintById(
  db: Db,
  id: number,
  lock = false,
): Promise<ComplaintRow | undefined> {
  const q = db.select().from(complaints).where(eq(complaints.id, id))
  const [row] = lock ? await q.for('update') : await q
  return row
}

/** Records the moderator's decision on a complaint (answered), in the caller's transaction. */
export async function answerComplaint(
  tx: Db,
  id: number,
  decision: { decidedAt: Date; decidedBy: number; decision: string; actionSeconds: number },
): Promise<void> {
  await tx
    .update(complaints)
    .set({ ...decision, status: 'answered' })
    .where(eq(complaints.id, id))
}

/** Complaints received in [start, end), by kind. */
export const complaintsReceived = (db: Db, start: Date, end: Date) =>
  db
    .select({ kind: complaints.kind, n: sql<number>`count(*)::int` })
    .from(complaints)
    .where(and(gte(complaints.createdAt, start), lt(complaints.createdAt, end)))
    .groupBy(complaints.kind)

/** Complaints decided in [start, end): the decision and its time to action. */
export const complaintsDecided = (db: Db, start: Date, end: Date) =>
  db
    .select({ decision: complaints.decision, s: complaints.actionSeconds })
    .from(complaints)
    .where(
      and(
        isNotNull(complaints.decidedAt),
        gte(complaints.decidedAt, start),
        lt(complaints.decidedAt, end),
      ),
    )
