// Sanctions: a member's live restrictions and the login bar they make, the
// sanction row a decision imposes (with its statement of reasons by mail and
// its DSA transparency submission), and what every decision shares.
import { randomBytes } from 'node:crypto'
import { and, desc, eq, gt, isNull, or, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { sanctions } from '../../db/schema/index.ts'
import type {
  DecideRequest,
  ModerationRule,
  RestrictingAction,
  SanctionView,
} from '../contract/operator/moderation.ts'
import { ApiFailure } from '../http/errors.ts'
import { storeMail } from '../mail/mailer.ts'
import { dropSubscriptions } from '../push/index.ts'
import { endAllSessions } from '../sessions/index.ts'
import { memberFields } from '../shared/members.ts'
import { hashToken } from '../shared/tokens.ts'
import { queueTransparency } from './transparency.ts'

export const DAY_MS = 86_400_000

export type SanctionRow = typeof sanctions.$inferSelect

export interface DecideContext {
  staffId: number
  now: Date
  site: string
  /** The site's address for links in mails; null: no mails (unknown host). */
  linkBase: string | null
}

export interface Decided {
  sanction: SanctionView | null
  actionSeconds: number
  mailIds: number[]
  /** Picture files to delete from the media directory after the commit (api/images/media.ts). */
  files: string[]
}

export const secondsSince = (created: Date, now: Date) =>
  Math.max(0, Math.round((now.getTime() - created.getTime()) / 1000))

/** Live restrictions of a member: suspensions not yet over and bans, unless lifted. */
export async function liveSanctions(db: Db, memberId: number, now: Date) {
  return db
    .select()
    .from(sanctions)
    .where(
      and(
        eq(sanctions.memberId, memberId),
        isNull(sanctions.liftedAt),
        or(
          eq(sanctions.kind, 'ban'),
          and(eq(sanctions.kind, 'suspend'), gt(sanctions.endsAt, now)),
        ),
      ),
    )
    .orderBy(desc(sanctions.id))
}

/**
 * SQL true when member `id` (SQL over a caller's statement) has a ban not
 * lifted: liveSanctions' ban, for a caller's single statement. The upload of
 * a photo matches it against banned accounts' photos (api/images/match.ts).
 */
export const bannedMemberSql = (id: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM sanctions bs
    WHERE bs.member_id = ${id} AND bs.kind = 'ban' AND bs.lifted_at IS NULL)`

/**
 * Why a member may not log in now, or null: a ban wins over a suspension;
 * of several suspensions, the one that ends last.
 */
export async function loginBarOf(db: Db, memberId: number, now: Date) {
  const live = await liveSanctions(db, memberId, now)
  const ban = live.find((s) => s.kind === 'ban')
  if (ban) return ban
  return live.sort((p, q) => (q.endsAt?.getTime() ?? 0) - (p.endsAt?.getTime() ?? 0))[0] ?? null
}

export const sanctionView = (s: SanctionRow): SanctionView => ({
  id: s.id,
  member: s.memberId,
  kind: s.kind as RestrictingAction,
  rule: s.rule as ModerationRule,
  reason: s.reason,
  starts_at: s.startsAt.toISOString(),
  ends_at: s.endsAt?.toISOString() ?? null,
  lifted_at: s.liftedAt?.toISOString() ?? null,
  staff: s.staffId,
})

/** What a decision's mails need of a member (the one acted on, or the one who reported). */
export async function memberRow(tx: Db, id: number) {
  const m = await memberFields(tx, id, [
    'id',
    'name',
    'email',
    'language',
    'mainImageId',
    'deletedAt',
  ] as const)
  return m ?? null
}

export type MemberRow = NonNullable<Awaited<ReturnType<typeof memberRow>>>

/** Ends every session of the member at once: the live stream sees it at its next check, pushes stop with the sessions. */
export async function endSessionsAndPushes(tx: Db, memberId: number) {
  await endAllSessions(tx, memberId)
  await dropSubscriptions(tx, memberId)
}

/**
 * Records a sanction on the decided item, with the appeal token its
 * statement of reasons carries and its transparency submission.
 */
export async function imposeSanction(
  tx: Db,
  ctx: DecideContext,
  values: {
    memberId: number
    kind: string
    rule: ModerationRule
    reason: string
    itemType: DecideRequest['type']
    itemId: number
    endsAt?: Date | null
  },
): Promise<{ sanction: SanctionRow | null; appealToken: string }> {
  const appealToken = randomBytes(24).toString('base64url')
  const [row] = await tx
    .insert(sanctions)
    .values({
      ...values,
      startsAt: ctx.now,
      staffId: ctx.staffId,
      appealTokenHash: hashToken(appealToken),
    })
    .returning()
  if (row) await queueTransparency(tx, row.id)
  return { sanction: row ?? null, appealToken }
}

export const statementVars = (s: SanctionRow) => ({
  kind: s.kind,
  rule: s.rule,
  reason: s.reason,
  ends: s.endsAt ? s.endsAt.toISOString().slice(0, 10) : '',
})

/** DSA Art. 17: the statement of reasons, by mail in the member's language, with the appeal link. */
export const mailStatement = (
  tx: Db,
  site: string,
  linkBase: string,
  target: MemberRow,
  sanction: SanctionRow,
  appealToken: string,
) =>
  storeMail(tx, {
    memberId: target.id,
    kind: 'statement_of_reasons',
    to: target.email,
    locale: target.language,
    vars: {
      name: target.name,
      site,
      link: `${linkBase}/appeal?token=${appealToken}`,
      statement: statementVars(sanction),
    },
    plainText: true,
  })

/**
 * An item a moderator approves or rejects (a photo, a held profile text):
 * any other action is refused, and a rejection names the rule it applies.
 */
export function approveOrReject(input: DecideRequest, item: string): 'approve' | 'reject' {
  if (input.action !== 'approve' && input.action !== 'reject')
    throw new ApiFailure(400, 'invalid_input', 'action', `${item} is approved or rejected`)
  if (input.action === 'reject' && !input.rule)
    throw new ApiFailure(400, 'invalid_input', 'rule', 'a decision names the rule it applies')
  return input.action
}
