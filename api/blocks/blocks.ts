// Blocks and reports, wherever a member meets another (chat header, profile);
// a report's row is stored through api/shared/reports.ts (moderation's table).
// A block works both ways: the blocked member cannot message the blocker,
// and neither sees the other in search, likes or chats.
import { and, eq, or, type Placeholder, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { blocks } from '../../db/schema/index.ts'
import { notifyMembers } from '../events/bus.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import type { Mailer } from '../mail/mailer.ts'
import { storeMail } from '../mail/mailer.ts'
import { memberFields } from '../shared/members.ts'
import { storeReport } from '../shared/reports.ts'

async function liveOther(db: Db, memberId: number, profile: number) {
  if (profile === memberId) throw new ApiFailure(400, 'invalid_input', 'profile', 'own profile')
  const row = await memberFields(db, profile, ['deletedAt'])
  if (!row || row.deletedAt !== null) throw notFound()
}

export async function setBlock(db: Db, memberId: number, profile: number, blocked: boolean) {
  await liveOther(db, memberId, profile)
  await db.transaction(async (tx) => {
    if (blocked) {
      await tx
        .insert(blocks)
        .values({ blockerId: memberId, blockedId: profile })
        .onConflictDoNothing()
    } else {
      await tx
        .delete(blocks)
        .where(and(eq(blocks.blockerId, memberId), eq(blocks.blockedId, profile)))
    }
    // Both lists change: the chat disappears from (or returns to) each side.
    await notifyMembers(tx, [memberId, profile], { type: 'chats' })
  })
  return { profile, blocked }
}

export interface ReportInput {
  profile: number
  message?: number | undefined
  reason: string
  text: string
}

export interface ReportContext {
  mailer: Mailer
  /** The operator's address for reports and complaints. */
  complaintsTo: string
  site: string
  /** Absolute link to the reported profile. */
  profileLink: (id: number) => string
  /**
   * Whether message `message` exists and `sender` sent it, read in `tx`
   * (messages are the chats domain's, which builds on this one).
   */
  sentBy: (tx: Db, message: number, sender: number) => Promise<boolean>
}

/**
 * Stores a report and mails the operator in the same transaction (the mail
 * job goes out after the commit); answers the reporter's receipt. A message
 * named must be one the reported member sent.
 */
export async function fileReport(db: Db, memberId: number, input: ReportInput, ctx: ReportContext) {
  await liveOther(db, memberId, input.profile)
  const { report, mailId } = await db.transaction(async (tx) => {
    if (input.message !== undefined && !(await ctx.sentBy(tx, input.message, input.profile))) {
      throw new ApiFailure(404, 'not_found', 'message')
    }
    const row = await storeReport(tx, {
      reporterId: memberId,
      reportedId: input.profile,
      messageId: input.message ?? null,
      reason: input.reason,
      text: input.text,
    })
    const id = await storeMail(tx, {
      memberId: null,
      kind: 'report',
      to: ctx.complaintsTo,
      locale: 'en',
      vars: {
        name: 'Moderation',
        site: ctx.site,
        link: ctx.profileLink(input.profile),
        report: {
          id: row.id,
          reason: input.reason,
          reported: input.profile,
          reporter: memberId,
          text: input.text,
        },
      },
    })
    return { report: row, mailId: id }
  })
  ctx.mailer.send(db, [mailId])
  return {
    report: {
      id: report.id,
      status: 'received' as const,
      created_at: report.createdAt.toISOString(),
    },
  }
}

/** Whether either member blocked the other. */
export async function blockedBetween(db: Db, a: number, b: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(blocks)
    .where(
      or(
        and(eq(blocks.blockerId, a), eq(blocks.blockedId, b)),
        and(eq(blocks.blockerId, b), eq(blocks.blockedId, a)),
      ),
    )
    .limit(1)
  return row !== undefined
}

/**
 * The both-ways block rule as SQL, for a caller's single statement: true when
 * either of `a` and `b` blocked the other (blockedBetween's one home in SQL).
 */
export const blockedBetweenSql = (a: SQL, b: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ${a} AND b.blocked_id = ${b})
    OR (b.blocker_id = ${b} AND b.blocked_id = ${a}))`

/**
 * The members `member` blocked or was blocked by, as a subquery for a
 * caller's `x NOT IN (...)`: a list reads the member's blocks once (a hashed
 * set) instead of probing them per row (the same both-ways rule).
 */
export const blockedWithSql = (member: SQL | Placeholder | number): SQL =>
  sql`SELECT blocks.blocked_id FROM blocks WHERE blocks.blocker_id = ${member}
    UNION ALL SELECT blocks.blocker_id FROM blocks WHERE blocks.blocked_id = ${member}`
