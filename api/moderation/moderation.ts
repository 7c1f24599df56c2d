// Moderation: one queue of member reports, public complaints and appeals;
// decisions on them (each audited in its transaction, with a statement of
// reasons to a restricted member and the decision to whoever reported it);
// sanctions that end sessions and refuse login; appeals decided by a
// different moderator; and the DSA transparency figures.
import { randomBytes } from 'node:crypto'
import { and, asc, desc, eq, gt, gte, isNotNull, isNull, lt, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import {
  appeals,
  auditLog,
  complaints,
  images,
  members,
  messages,
  pushSubscriptions,
  reports,
  sanctions,
  sessions,
} from '../../db/schema/index.ts'
import type {
  ContextMessage,
  DecideRequest,
  DsaResponse,
  ModeratedProfile,
  ModerationRule,
  QueueItem,
  QueueItemDetail,
  QueueItemType,
  RestrictingAction,
  SanctionView,
} from '../contract/operator/moderation.ts'
import { MESSAGE_CONTEXT, QUEUE_OVERDUE_S } from '../contract/operator/moderation.ts'
import { SCAM_ACTIONS } from '../contract/rules/moderation.ts'
import { heldOpening, heldOpenings, refuseOpening, releaseOpening } from '../chats/index.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { type PictureStore, refreshMainImage, removeImageRow } from '../images/index.ts'
import { storeMail } from '../mail/mailer.ts'
import { ageOn } from '../profiles/index.ts'
import { audit } from '../shared/audit.ts'
import { hashToken } from '../shared/tokens.ts'
import {
  decideVerification,
  pendingVerifications,
  verificationCase,
} from '../verification/index.ts'
import { queueTransparency } from './transparency.ts'

const QUEUE_LIMIT = 200
const DAY_MS = 86_400_000

/** The member a complaint's URL points at (`/members/12`), if any. */
export function memberOfUrl(url: string | null): number | null {
  const m = url?.match(/\/members\/(\d{1,15})(?:[/?#]|$)/)
  return m ? Number(m[1]) : null
}

const overdue = (created: Date, now: Date) =>
  now.getTime() - created.getTime() > QUEUE_OVERDUE_S * 1000

/**
 * Photos of live members no moderator saw yet, oldest first: those held by
 * pre-moderation and, where the site does not pre-moderate, those members
 * already see but guests do not (post-moderation).
 */
const pendingPhotos = (db: Db) =>
  db
    .select({ id: images.id, memberId: images.memberId, createdAt: images.createdAt })
    .from(images)
    .innerJoin(members, eq(members.id, images.memberId))
    .where(and(eq(images.reviewed, false), isNull(members.deletedAt)))
    .orderBy(asc(images.id))
    .limit(QUEUE_LIMIT)

/** Open items, oldest first: whatever waits longer than 24 hours leads the list. */
export async function queue(db: Db, now: Date): Promise<QueueItem[]> {
  const [r, c, a, p, h, v] = await Promise.all([
    db
      .select()
      .from(reports)
      .where(and(eq(reports.status, 'open'), isNull(reports.decidedAt)))
      .orderBy(asc(reports.id))
      .limit(QUEUE_LIMIT),
    db
      .select()
      .from(complaints)
      .where(isNull(complaints.decidedAt))
      .orderBy(asc(complaints.id))
      .limit(QUEUE_LIMIT),
    db
      .select({ appeal: appeals, sanction: sanctions })
      .from(appeals)
      .innerJoin(sanctions, eq(sanctions.id, appeals.sanctionId))
      .where(isNull(appeals.decidedAt))
      .orderBy(asc(appeals.id))
      .limit(QUEUE_LIMIT),
    pendingPhotos(db),
    heldOpenings(db, QUEUE_LIMIT),
    pendingVerifications(db, QUEUE_LIMIT),
  ])
  const items: QueueItem[] = [
    ...r.map((x) => ({
      type: 'report' as const,
      id: x.id,
      created: x.createdAt,
      summary: x.reason,
      member: x.reportedId,
    })),
    ...c.map((x) => ({
      type: 'complaint' as const,
      id: x.id,
      created: x.createdAt,
      summary: `${x.kind}: ${x.subject}`,
      member: memberOfUrl(x.url),
    })),
    ...a.map((x) => ({
      type: 'appeal' as const,
      id: x.appeal.id,
      created: x.appeal.createdAt,
      summary: `${x.sanction.kind}: ${x.sanction.rule}`,
      member: x.sanction.memberId,
    })),
    ...p.map((x) => ({
      type: 'photo' as const,
      id: x.id,
      created: x.createdAt,
      summary: 'photo',
      member: x.memberId,
    })),
    ...h.map((x) => ({
      type: 'scam' as const,
      id: x.conversationId,
      created: x.createdAt,
      summary: scamSummary(x.signals),
      member: x.memberId,
    })),
    ...v.map((x) => ({
      type: 'verification' as const,
      id: x.id,
      // A pending request always has its selfie's time.
      created: x.createdAt ?? new Date(0),
      summary: 'verification',
      member: x.memberId,
    })),
  ]
    .sort((p, q) => p.created.getTime() - q.created.getTime() || p.id - q.id)
    .slice(0, QUEUE_LIMIT)
    .map(({ created, ...rest }) => ({
      ...rest,
      created_at: created.toISOString(),
      overdue: overdue(created, now),
    }))
  return items
}

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
 * Why a member may not log in now, or null: a ban wins over a suspension;
 * of several suspensions, the one that ends last.
 */
export async function loginBarOf(db: Db, memberId: number, now: Date) {
  const live = await liveSanctions(db, memberId, now)
  const ban = live.find((s) => s.kind === 'ban')
  if (ban) return ban
  return live.sort((p, q) => (q.endsAt?.getTime() ?? 0) - (p.endsAt?.getTime() ?? 0))[0] ?? null
}

export async function moderatedProfile(
  db: Db,
  memberId: number,
  now: Date,
): Promise<ModeratedProfile | null> {
  const [m] = await db.select().from(members).where(eq(members.id, memberId))
  if (!m) return null
  const [photos, live] = await Promise.all([
    db
      .select({ id: images.id, thumb: images.thumbFilename, status: images.status })
      .from(images)
      .where(eq(images.memberId, memberId))
      .orderBy(asc(images.id)),
    liveSanctions(db, memberId, now),
  ])
  return {
    id: m.id,
    name: m.name,
    age: ageOn(m.dateOfBirth, now),
    city: m.city,
    country: m.country,
    personal: m.personal,
    fictional: m.fictional,
    photos: photos
      .map((p) => ({
        id: p.id,
        url: `/media/${p.thumb}`,
        main: p.id === m.mainImageId,
        pending: p.status === 'pending',
      }))
      .sort((p, q) => Number(q.main) - Number(p.main)),
    sanctions: live.map((s) => ({
      id: s.id,
      kind: s.kind,
      ends_at: s.endsAt?.toISOString() ?? null,
    })),
  }
}

/** The reported message with MESSAGE_CONTEXT messages before and after it, oldest first. */
export async function messageContext(db: Db, messageId: number): Promise<ContextMessage[]> {
  const [target] = await db.select().from(messages).where(eq(messages.id, messageId))
  if (!target) return []
  const [before, after] = await Promise.all([
    db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, target.conversationId), lt(messages.id, target.id)))
      .orderBy(desc(messages.id))
      .limit(MESSAGE_CONTEXT),
    db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, target.conversationId), gt(messages.id, target.id)))
      .orderBy(asc(messages.id))
      .limit(MESSAGE_CONTEXT),
  ])
  return [...before.reverse(), target, ...after].map((x) => ({
    id: x.id,
    sender: x.senderId,
    body: x.body,
    created_at: x.createdAt.toISOString(),
    reported: x.id === target.id,
  }))
}

export const sanctionView = (s: typeof sanctions.$inferSelect): SanctionView => ({
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

export async function queueItem(
  db: Db,
  type: QueueItemType,
  id: number,
  now: Date,
  store?: PictureStore,
): Promise<QueueItemDetail | null> {
  if (type === 'photo') return photoItem(db, id, now)
  if (type === 'verification') return verificationItem(db, id, now, store)
  if (type === 'scam') return scamItem(db, id, now)
  if (type === 'report') {
    const [r] = await db.select().from(reports).where(eq(reports.id, id))
    if (!r) return null
    return {
      item: {
        type,
        id,
        created_at: r.createdAt.toISOString(),
        overdue: overdue(r.createdAt, now),
        summary: r.reason,
        member: r.reportedId,
      },
      decided_at: r.decidedAt?.toISOString() ?? null,
      decision: r.decision,
      text: r.text,
      from: { member: r.reporterId, name: null },
      url: null,
      profile: await moderatedProfile(db, r.reportedId, now),
      messages: r.messageId ? await messageContext(db, r.messageId) : [],
      sanction: null,
      photo: null,
      verification: null,
    }
  }
  if (type === 'complaint') {
    const [c] = await db.select().from(complaints).where(eq(complaints.id, id))
    if (!c) return null
    const member = memberOfUrl(c.url)
    return {
      item: {
        type,
        id,
        created_at: c.createdAt.toISOString(),
        overdue: overdue(c.createdAt, now),
        summary: `${c.kind}: ${c.subject}`,
        member,
      },
      decided_at: c.decidedAt?.toISOString() ?? null,
      decision: c.decision,
      text: c.text,
      from: { member: c.memberId, name: c.name },
      url: c.url,
      profile: member ? await moderatedProfile(db, member, now) : null,
      messages: [],
      sanction: null,
      photo: null,
      verification: null,
    }
  }
  const [a] = await db
    .select({ appeal: appeals, sanction: sanctions })
    .from(appeals)
    .innerJoin(sanctions, eq(sanctions.id, appeals.sanctionId))
    .where(eq(appeals.id, id))
  if (!a) return null
  return {
    item: {
      type,
      id,
      created_at: a.appeal.createdAt.toISOString(),
      overdue: overdue(a.appeal.createdAt, now),
      summary: `${a.sanction.kind}: ${a.sanction.rule}`,
      member: a.sanction.memberId,
    },
    decided_at: a.appeal.decidedAt?.toISOString() ?? null,
    decision: a.appeal.outcome,
    text: a.appeal.text,
    from: { member: a.sanction.memberId, name: null },
    url: null,
    profile: await moderatedProfile(db, a.sanction.memberId, now),
    messages: [],
    sanction: sanctionView(a.sanction),
    photo: null,
    verification: null,
  }
}

/**
 * A photo held for review, in the context of its profile. Once approved it
 * answers as decided (when: its audit row); once rejected it is gone (404).
 */
async function photoItem(db: Db, id: number, now: Date): Promise<QueueItemDetail | null> {
  const [img] = await db.select().from(images).where(eq(images.id, id))
  if (!img) return null
  const [approved] =
    img.status === 'pending'
      ? []
      : await db
          .select({ at: auditLog.createdAt })
          .from(auditLog)
          .where(
            and(
              eq(auditLog.action, 'moderation.approve_photo'),
              eq(auditLog.targetType, 'photo'),
              eq(auditLog.targetId, String(id)),
            ),
          )
          .limit(1)
  return {
    item: {
      type: 'photo',
      id,
      created_at: img.createdAt.toISOString(),
      overdue: overdue(img.createdAt, now),
      summary: 'photo',
      member: img.memberId,
    },
    decided_at: img.status === 'pending' ? null : (approved?.at ?? img.createdAt).toISOString(),
    decision: img.status === 'pending' ? null : 'approve',
    text: '',
    from: { member: img.memberId, name: null },
    url: null,
    profile: await moderatedProfile(db, img.memberId, now),
    messages: [],
    sanction: null,
    photo: { id, url: `/media/${img.filename}`, thumb_url: `/media/${img.thumbFilename}` },
    verification: null,
  }
}

/**
 * A verification selfie beside the member's profile and photos. The selfie
 * itself only while it waits: the decision deletes it.
 */
async function verificationItem(
  db: Db,
  id: number,
  now: Date,
  store: PictureStore | undefined,
): Promise<QueueItemDetail | null> {
  const v = await verificationCase(db, id, store)
  if (!v) return null
  const created = v.row.submittedAt
  return {
    item: {
      type: 'verification',
      id,
      created_at: created.toISOString(),
      overdue: v.row.status === 'pending' && overdue(created, now),
      summary: 'verification',
      member: v.row.memberId,
    },
    decided_at: v.row.decidedAt?.toISOString() ?? null,
    decision:
      v.row.status === 'pending' ? null : v.row.status === 'approved' ? 'approve' : 'reject',
    text: v.row.status === 'refused' ? (v.row.reason ?? '') : '',
    from: { member: v.row.memberId, name: null },
    url: null,
    profile: await moderatedProfile(db, v.row.memberId, now),
    messages: [],
    sanction: null,
    photo: null,
    verification: { pose: v.pose, selfie: v.selfie },
  }
}

/** A held first message's summary: the signals that fired (api/contract/rules/scam.ts), `phone, messenger`. */
const scamSummary = (signals: string) => signals.split(',').join(', ')

/** A first message held by the scam signals, with its sender's profile. */
async function scamItem(db: Db, id: number, now: Date): Promise<QueueItemDetail | null> {
  const f = await heldOpening(db, id, false)
  if (!f) return null
  return {
    item: {
      type: 'scam',
      id,
      created_at: f.createdAt.toISOString(),
      overdue: overdue(f.createdAt, now),
      summary: scamSummary(f.signals),
      member: f.memberId,
    },
    decided_at: f.decidedAt?.toISOString() ?? null,
    decision: f.status === 'held' ? null : f.status,
    text: f.body ?? '',
    from: { member: f.memberId, name: null },
    url: null,
    profile: await moderatedProfile(db, f.memberId, now),
    messages: [],
    sanction: null,
    photo: null,
    verification: null,
  }
}

export interface DecideContext {
  staffId: number
  now: Date
  site: string
  /** The site's address for links in mails; null: no mails (unknown host). */
  linkBase: string | null
}

interface Decided {
  sanction: SanctionView | null
  actionSeconds: number
  mailIds: number[]
  /** Picture files to delete from the media directory after the commit (api/images/media.ts). */
  files: string[]
}

const secondsSince = (created: Date, now: Date) =>
  Math.max(0, Math.round((now.getTime() - created.getTime()) / 1000))

async function memberRow(tx: Db, id: number) {
  const [m] = await tx
    .select({
      id: members.id,
      name: members.name,
      email: members.email,
      language: members.language,
      mainImageId: members.mainImageId,
      deletedAt: members.deletedAt,
    })
    .from(members)
    .where(eq(members.id, id))
  return m ?? null
}

/** Ends every session of the member at once: the live stream sees it at its next check, pushes stop with the sessions. */
async function endAllSessions(tx: Db, memberId: number) {
  await tx.delete(sessions).where(eq(sessions.memberId, memberId))
  await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.memberId, memberId))
}

/**
 * Decides a queue item in one transaction: the item's decision and time to
 * action, the action's effect, its sanction, the audit row and the mails.
 */
export async function decide(db: Db, input: DecideRequest, ctx: DecideContext): Promise<Decided> {
  return db.transaction(async (tx) => {
    if (input.type === 'appeal') return decideAppeal(tx, input, ctx)
    if (input.type === 'photo') return decidePhoto(tx, input, ctx)
    if (input.type === 'verification') {
      if (input.action !== 'approve' && input.action !== 'reject')
        throw new ApiFailure(400, 'invalid_input', 'action', 'a selfie is approved or rejected')
      const done = await decideVerification(tx, {
        id: input.id,
        action: input.action,
        reason: input.reason,
        staffId: ctx.staffId,
        now: ctx.now,
        site: ctx.site,
        linkBase: ctx.linkBase,
      })
      return {
        sanction: null,
        actionSeconds: done.actionSeconds,
        mailIds: done.mailIds,
        files: done.files,
      }
    }
    if (input.action === 'uphold' || input.action === 'lift')
      throw new ApiFailure(400, 'invalid_input', 'action', 'only for appeals')
    if (input.action === 'approve' || input.action === 'reject')
      throw new ApiFailure(400, 'invalid_input', 'action', 'only for photos held for review')
    let created: Date
    let targetMember: number | null
    let informs: { memberId: number | null; to: string; name: string; locale: string } | null
    if (input.type === 'report') {
      const [r] = await tx.select().from(reports).where(eq(reports.id, input.id)).for('update')
      if (!r) throw notFound()
      if (r.decidedAt || r.status !== 'open') throw new ApiFailure(409, 'already_decided')
      created = r.createdAt
      targetMember = r.reportedId
      const reporter = await memberRow(tx, r.reporterId)
      informs = reporter
        ? {
            memberId: reporter.id,
            to: reporter.email,
            name: reporter.name,
            locale: reporter.language,
          }
        : null
    } else if (input.type === 'scam') {
      const f = await heldOpening(tx, input.id, true)
      if (!f) throw notFound()
      if (f.status !== 'held') throw new ApiFailure(409, 'already_decided')
      if (!(SCAM_ACTIONS as readonly string[]).includes(input.action))
        throw new ApiFailure(
          400,
          'invalid_input',
          'action',
          'a held message is released (dismiss) or refused with warn, suspend or ban',
        )
      created = f.createdAt
      targetMember = f.memberId
      informs = null
    } else {
      const [c] = await tx
        .select()
        .from(complaints)
        .where(eq(complaints.id, input.id))
        .for('update')
      if (!c) throw notFound()
      if (c.decidedAt) throw new ApiFailure(409, 'already_decided')
      created = c.createdAt
      targetMember = input.member ?? memberOfUrl(c.url)
      informs = { memberId: c.memberId, to: c.email, name: c.name, locale: c.locale }
    }
    const action = input.action
    if (action !== 'dismiss' && !input.rule)
      throw new ApiFailure(400, 'invalid_input', 'rule', 'a decision names the rule it applies')
    const target =
      action === 'dismiss' || targetMember === null ? null : await memberRow(tx, targetMember)
    if (action !== 'dismiss' && !target)
      throw new ApiFailure(422, 'no_member', 'member', 'the item names no member to act on')
    const mailIds: number[] = []
    const files: string[] = []
    let sanction: typeof sanctions.$inferSelect | null = null
    let appealToken: string | null = null
    if (target && input.rule) {
      switch (action) {
        case 'suspend':
          if (!input.days)
            throw new ApiFailure(400, 'invalid_input', 'days', 'a suspension needs days')
          await endAllSessions(tx, target.id)
          break
        case 'ban':
          await endAllSessions(tx, target.id)
          break
        case 'remove_photo': {
          if (!input.photo) throw new ApiFailure(400, 'invalid_input', 'photo', 'which photo')
          const gone = await removeImageRow(tx, target.id, input.photo)
          if (!gone) throw new ApiFailure(422, 'no_such_photo', 'photo')
          files.push(...gone.files)
          break
        }
        case 'remove_text':
          await tx
            .update(members)
            .set({ personal: null, notes: null })
            .where(eq(members.id, target.id))
          break
        case 'mark_fictional':
        case 'unmark_fictional':
          await tx
            .update(members)
            .set({ fictional: action === 'mark_fictional' })
            .where(eq(members.id, target.id))
          break
      }
      if (action !== 'mark_fictional' && action !== 'unmark_fictional') {
        appealToken = randomBytes(24).toString('base64url')
        const [row] = await tx
          .insert(sanctions)
          .values({
            memberId: target.id,
            kind: action,
            rule: input.rule,
            reason: input.reason,
            itemType: input.type,
            itemId: input.id,
            startsAt: ctx.now,
            endsAt:
              action === 'suspend' && input.days
                ? new Date(ctx.now.getTime() + input.days * DAY_MS)
                : null,
            staffId: ctx.staffId,
            appealTokenHash: hashToken(appealToken),
          })
          .returning()
        sanction = row ?? null
        if (row) await queueTransparency(tx, row.id)
      }
    }
    const actionSeconds = secondsSince(created, ctx.now)
    const decision = { decidedAt: ctx.now, decidedBy: ctx.staffId, decision: action, actionSeconds }
    if (input.type === 'scam') {
      // Dismissed: the message was fine after all and goes out now; any
      // restricting action refuses it (its credits refunded) with the sanction above.
      if (action === 'dismiss')
        await releaseOpening(tx, input.id, ctx.staffId, ctx.now, ctx.linkBase)
      else await refuseOpening(tx, input.id, ctx.staffId, ctx.now)
    } else if (input.type === 'report')
      await tx
        .update(reports)
        .set({ ...decision, status: 'decided' })
        .where(eq(reports.id, input.id))
    else
      await tx
        .update(complaints)
        .set({ ...decision, status: 'answered' })
        .where(eq(complaints.id, input.id))
    await audit(tx, ctx.staffId, {
      action: `moderation.${action}`,
      targetType: input.type,
      targetId: input.id,
      reason: input.reason,
      details: {
        member: target?.id ?? null,
        rule: input.rule ?? null,
        ...(input.days ? { days: input.days } : {}),
        ...(input.photo ? { photo: input.photo } : {}),
        sanction: sanction?.id ?? null,
        action_seconds: actionSeconds,
      },
    })
    if (ctx.linkBase !== null) {
      if (sanction && target && appealToken) {
        mailIds.push(await mailStatement(tx, ctx.site, ctx.linkBase, target, sanction, appealToken))
      }
      if (informs) {
        mailIds.push(
          await storeMail(tx, {
            memberId: informs.memberId,
            kind: 'report_decision',
            to: informs.to,
            locale: informs.locale,
            vars: {
              name: informs.name,
              site: ctx.site,
              link: `${ctx.linkBase}/complaints?kind=decision`,
              decision: { acted: action !== 'dismiss', action },
            },
            plainText: true,
          }),
        )
      }
    }
    return { sanction: sanction ? sanctionView(sanction) : null, actionSeconds, mailIds, files }
  })
}

/**
 * Decides a photo no moderator saw yet: approve (it becomes visible, to
 * guests too, and the main picture if the member has none; a picture members
 * already saw, where the site does not pre-moderate, is marked reviewed) or
 * reject (it is removed, and the
 * member gets a statement of reasons they can appeal, as for any removal).
 * Audited; the time to action is in the audit row.
 */
async function decidePhoto(tx: Db, input: DecideRequest, ctx: DecideContext): Promise<Decided> {
  if (input.action !== 'approve' && input.action !== 'reject')
    throw new ApiFailure(400, 'invalid_input', 'action', 'a photo is approved or rejected')
  if (input.action === 'reject' && !input.rule)
    throw new ApiFailure(400, 'invalid_input', 'rule', 'a decision names the rule it applies')
  const [img] = await tx.select().from(images).where(eq(images.id, input.id)).for('update')
  if (!img) throw notFound()
  if (img.reviewed) throw new ApiFailure(409, 'already_decided')
  const actionSeconds = secondsSince(img.createdAt, ctx.now)
  const files: string[] = []
  const mailIds: number[] = []
  let sanction: typeof sanctions.$inferSelect | null = null
  let appealToken: string | null = null
  if (input.action === 'approve') {
    await tx.update(images).set({ status: 'approved', reviewed: true }).where(eq(images.id, img.id))
    await refreshMainImage(tx, img.memberId)
  } else {
    const gone = await removeImageRow(tx, img.memberId, img.id)
    if (gone) files.push(...gone.files)
    appealToken = randomBytes(24).toString('base64url')
    const [row] = await tx
      .insert(sanctions)
      .values({
        memberId: img.memberId,
        kind: 'remove_photo',
        rule: input.rule as ModerationRule,
        reason: input.reason,
        itemType: 'photo',
        itemId: img.id,
        startsAt: ctx.now,
        staffId: ctx.staffId,
        appealTokenHash: hashToken(appealToken),
      })
      .returning()
    sanction = row ?? null
    if (row) await queueTransparency(tx, row.id)
  }
  await audit(tx, ctx.staffId, {
    action: `moderation.${input.action}_photo`,
    targetType: 'photo',
    targetId: img.id,
    reason: input.reason,
    details: {
      member: img.memberId,
      rule: input.rule ?? null,
      sanction: sanction?.id ?? null,
      action_seconds: actionSeconds,
    },
  })
  const target = await memberRow(tx, img.memberId)
  if (ctx.linkBase !== null && sanction && appealToken && target && !target.deletedAt) {
    mailIds.push(await mailStatement(tx, ctx.site, ctx.linkBase, target, sanction, appealToken))
  }
  return { sanction: sanction ? sanctionView(sanction) : null, actionSeconds, mailIds, files }
}

const statementVars = (s: typeof sanctions.$inferSelect) => ({
  kind: s.kind,
  rule: s.rule,
  reason: s.reason,
  ends: s.endsAt ? s.endsAt.toISOString().slice(0, 10) : '',
})

/** DSA Art. 17: the statement of reasons, by mail in the member's language, with the appeal link. */
const mailStatement = (
  tx: Db,
  site: string,
  linkBase: string,
  target: NonNullable<Awaited<ReturnType<typeof memberRow>>>,
  sanction: typeof sanctions.$inferSelect,
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

async function decideAppeal(tx: Db, input: DecideRequest, ctx: DecideContext): Promise<Decided> {
  if (input.action !== 'uphold' && input.action !== 'lift')
    throw new ApiFailure(400, 'invalid_input', 'action', 'an appeal is upheld or lifted')
  const [a] = await tx
    .select({ appeal: appeals, sanction: sanctions })
    .from(appeals)
    .innerJoin(sanctions, eq(sanctions.id, appeals.sanctionId))
    .where(eq(appeals.id, input.id))
    .for('update')
  if (!a) throw notFound()
  if (a.appeal.decidedAt) throw new ApiFailure(409, 'already_decided')
  // DSA Art. 20(6): an appeal is not decided by the moderator who made the decision.
  if (a.sanction.staffId === ctx.staffId)
    throw new ApiFailure(403, 'same_moderator', undefined, 'another moderator decides this appeal')
  const outcome = input.action === 'lift' ? 'lifted' : 'upheld'
  const actionSeconds = secondsSince(a.appeal.createdAt, ctx.now)
  await tx
    .update(appeals)
    .set({
      decidedAt: ctx.now,
      decidedBy: ctx.staffId,
      outcome,
      reason: input.reason,
      actionSeconds,
    })
    .where(eq(appeals.id, a.appeal.id))
  let sanction = a.sanction
  if (outcome === 'lifted') {
    const [row] = await tx
      .update(sanctions)
      .set({ liftedAt: ctx.now, liftedBy: ctx.staffId })
      .where(eq(sanctions.id, a.sanction.id))
      .returning()
    if (row) sanction = row
  }
  await audit(tx, ctx.staffId, {
    action: `appeal.${input.action}`,
    targetType: 'appeal',
    targetId: a.appeal.id,
    reason: input.reason,
    details: {
      member: a.sanction.memberId,
      sanction: a.sanction.id,
      decided_by: a.sanction.staffId,
      action_seconds: actionSeconds,
    },
  })
  const mailIds: number[] = []
  const member = await memberRow(tx, a.sanction.memberId)
  if (member && ctx.linkBase !== null)
    mailIds.push(
      await storeMail(tx, {
        memberId: member.id,
        kind: 'appeal_decision',
        to: member.email,
        locale: member.language,
        vars: {
          name: member.name,
          site: ctx.site,
          link: `${ctx.linkBase}/login`,
          statement: statementVars(a.sanction),
          appeal: { outcome, reason: input.reason },
        },
        plainText: true,
      }),
    )
  return { sanction: sanctionView(sanction), actionSeconds, mailIds, files: [] }
}

/** The sanction an appeal token was mailed with, or null. */
export async function sanctionByToken(db: Db, token: string) {
  const [row] = await db
    .select()
    .from(sanctions)
    .where(eq(sanctions.appealTokenHash, hashToken(token)))
  if (!row) return null
  const [appeal] = await db
    .select()
    .from(appeals)
    .where(eq(appeals.sanctionId, row.id))
    .orderBy(desc(appeals.id))
    .limit(1)
  return { sanction: row, appeal: appeal ?? null }
}

/** Files an appeal; 409 while one is open or once one was decided (one appeal per decision). */
export async function fileAppeal(db: Db, token: string, text: string) {
  const found = await sanctionByToken(db, token)
  if (!found) throw notFound()
  if (found.appeal) throw new ApiFailure(409, 'already_appealed')
  const [row] = await db
    .insert(appeals)
    .values({ sanctionId: found.sanction.id, text })
    .onConflictDoNothing()
    .returning()
  if (!row) throw new ApiFailure(409, 'already_appealed')
  return row
}

const median = (xs: number[]) => {
  if (xs.length === 0) return null
  const s = [...xs].sort((p, q) => p - q)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

/** DSA Art. 24 figures for [from, to] (whole UTC days). */
export async function dsaFigures(db: Db, from: string, to: string): Promise<DsaResponse> {
  const start = new Date(`${from}T00:00:00Z`)
  const end = new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY_MS)
  const [reportRows, complaintRows, decidedReports, decidedComplaints, appealRows] =
    await Promise.all([
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(reports)
        .where(and(gte(reports.createdAt, start), lt(reports.createdAt, end))),
      db
        .select({ kind: complaints.kind, n: sql<number>`count(*)::int` })
        .from(complaints)
        .where(and(gte(complaints.createdAt, start), lt(complaints.createdAt, end)))
        .groupBy(complaints.kind),
      db
        .select({ decision: reports.decision, s: reports.actionSeconds })
        .from(reports)
        .where(
          and(
            isNotNull(reports.decidedAt),
            gte(reports.decidedAt, start),
            lt(reports.decidedAt, end),
          ),
        ),
      db
        .select({ decision: complaints.decision, s: complaints.actionSeconds })
        .from(complaints)
        .where(
          and(
            isNotNull(complaints.decidedAt),
            gte(complaints.decidedAt, start),
            lt(complaints.decidedAt, end),
          ),
        ),
      db
        .select({ outcome: appeals.outcome })
        .from(appeals)
        .where(and(gte(appeals.createdAt, start), lt(appeals.createdAt, end))),
    ])
  const notices: Record<string, number> = { report: reportRows[0]?.n ?? 0 }
  for (const row of complaintRows) notices[`complaint_${row.kind}`] = row.n
  const actions: Record<string, number> = {}
  const seconds: number[] = []
  for (const row of [...decidedReports, ...decidedComplaints]) {
    if (row.decision) actions[row.decision] = (actions[row.decision] ?? 0) + 1
    if (row.s !== null) seconds.push(row.s)
  }
  return {
    from,
    to,
    notices,
    actions,
    median_action_seconds: median(seconds),
    appeals: {
      received: appealRows.length,
      upheld: appealRows.filter((a) => a.outcome === 'upheld').length,
      lifted: appealRows.filter((a) => a.outcome === 'lifted').length,
      open: appealRows.filter((a) => a.outcome === null).length,
    },
    automated: false,
  }
}
