// One queue item in full, as the moderator decides it: the item, the
// profile it concerns (photos, live sanctions), the reported message in its
// conversation, the photo, the selfie or the held first message.
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { appeals, reports, sanctions } from '../../db/schema/index.ts'
import { heldOpening, messageInContext } from '../chats/index.ts'
import { complaintById } from '../complaints/index.ts'
import type {
  ContextMessage,
  ModeratedProfile,
  QueueItemDetail,
  QueueItemType,
} from '../contract/operator/moderation.ts'
import { MESSAGE_CONTEXT } from '../contract/operator/moderation.ts'
import {
  type ImageRow,
  memberPhotos,
  type PictureStore,
  photoById,
  pictureDataUrl,
  voiceDataUrl,
} from '../images/index.ts'
import { ageOn } from '../profiles/index.ts'
import { auditedAt } from '../shared/audit.ts'
import { memberFields } from '../shared/members.ts'
import { verificationCase } from '../verification/index.ts'
import { heldTextsText, profileTextReview } from './profile-texts.ts'
import { memberOfUrl, overdue, photoSummary, scamSummary } from './queue.ts'
import { liveSanctions, sanctionView } from './sanctions.ts'

/** What a moderator sees of the member's own row. */
const PROFILE_FIELDS = [
  'id',
  'name',
  'dateOfBirth',
  'city',
  'country',
  'personal',
  'fictional',
  'mainImageId',
] as const

async function moderatedProfile(
  db: Db,
  memberId: number,
  now: Date,
): Promise<ModeratedProfile | null> {
  const m = await memberFields(db, memberId, PROFILE_FIELDS)
  if (!m) return null
  const [photos, live] = await Promise.all([
    memberPhotos(db, memberId),
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
async function messageContext(
  db: Db,
  messageId: number,
  store: PictureStore | undefined,
): Promise<ContextMessage[]> {
  const rows = await messageInContext(db, messageId, MESSAGE_CONTEXT)
  return Promise.all(
    rows.map(async (x) => ({
      id: x.id,
      sender: x.senderId,
      body: x.body,
      created_at: x.createdAt.toISOString(),
      reported: x.id === messageId,
      ...(x.photo === null ? {} : { photo: store ? await pictureDataUrl(store, x.photo) : null }),
      ...(await voiceForModerator(x, store)),
    })),
  )
}

/** A voice message's recording in the queue item (a `data:` URL from the store); nothing for any other message. */
async function voiceForModerator(
  x: { voice: string | null; voiceType: string | null; voiceMs: number | null },
  store: PictureStore | undefined,
): Promise<Pick<ContextMessage, 'voice'>> {
  if (x.voice === null || x.voiceMs === null) return {}
  const type = x.voiceType === 'audio/mp4' ? 'audio/mp4' : 'audio/webm'
  const url = store ? await voiceDataUrl(store, x.voice) : null
  return { voice: { url, type, duration_ms: x.voiceMs } }
}

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
  if (type === 'profile_text') return profileTextItem(db, id, now)
  if (type === 'report') return reportItem(db, id, now, store)
  if (type === 'complaint') return complaintItem(db, id, now)
  return appealItem(db, id, now)
}

/** Profile texts held for review: the held texts, beside the profile others see now. */
async function profileTextItem(db: Db, id: number, now: Date): Promise<QueueItemDetail | null> {
  const r = await profileTextReview(db, id)
  if (!r) return null
  return {
    item: {
      type: 'profile_text',
      id,
      created_at: r.createdAt.toISOString(),
      overdue: overdue(r.createdAt, now),
      summary: scamSummary(r.signals),
      member: r.memberId,
    },
    decided_at: r.decidedAt?.toISOString() ?? null,
    decision: r.decision,
    text: heldTextsText(r.texts),
    from: { member: r.memberId, name: null },
    url: null,
    profile: await moderatedProfile(db, r.memberId, now),
    messages: [],
    sanction: null,
    photo: null,
    verification: null,
  }
}

/** A member's report, with the reported message in its conversation. */
async function reportItem(
  db: Db,
  id: number,
  now: Date,
  store: PictureStore | undefined,
): Promise<QueueItemDetail | null> {
  const [r] = await db.select().from(reports).where(eq(reports.id, id))
  if (!r) return null
  return {
    item: {
      type: 'report',
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
    messages: r.messageId ? await messageContext(db, r.messageId, store) : [],
    sanction: null,
    photo: null,
    verification: null,
  }
}

/** A public complaint, with the profile its URL points at. */
async function complaintItem(db: Db, id: number, now: Date): Promise<QueueItemDetail | null> {
  const c = await complaintById(db, id)
  if (!c) return null
  const member = memberOfUrl(c.url)
  return {
    item: {
      type: 'complaint',
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

/** An appeal, with the sanction it contests. */
async function appealItem(db: Db, id: number, now: Date): Promise<QueueItemDetail | null> {
  const [a] = await db
    .select({ appeal: appeals, sanction: sanctions })
    .from(appeals)
    .innerJoin(sanctions, eq(sanctions.id, appeals.sanctionId))
    .where(eq(appeals.id, id))
  if (!a) return null
  return {
    item: {
      type: 'appeal',
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
  const img = await photoById(db, id)
  if (!img) return null
  const approvedAt =
    img.status === 'pending'
      ? null
      : await auditedAt(db, {
          action: 'moderation.approve_photo',
          targetType: 'photo',
          targetId: id,
        })
  return {
    item: {
      type: 'photo',
      id,
      created_at: img.createdAt.toISOString(),
      overdue: overdue(img.createdAt, now),
      summary: photoSummary(img),
      member: img.memberId,
    },
    decided_at: img.status === 'pending' ? null : (approvedAt ?? img.createdAt).toISOString(),
    decision: img.status === 'pending' ? null : 'approve',
    text: '',
    from: { member: img.memberId, name: null },
    url: null,
    profile: await moderatedProfile(db, img.memberId, now),
    messages: [],
    sanction: null,
    photo: {
      id,
      url: `/media/${img.filename}`,
      thumb_url: `/media/${img.thumbFilename}`,
      match: await photoMatch(db, img, now),
      face_match: await faceMatch(db, img, now),
    },
    verification: null,
  }
}

/** The same face kept for another account, found after upload: that account, the similarity, whether it is banned now. */
async function faceMatch(db: Db, img: ImageRow, now: Date) {
  if (img.faceMatchMemberId === null) return null
  const live = await liveSanctions(db, img.faceMatchMemberId, now)
  return {
    member: img.faceMatchMemberId,
    similarity: img.faceMatchScore ?? 0,
    banned: live.some((s) => s.kind === 'ban'),
  }
}

/** The same photo on another account, found at upload: that picture (if kept) and whether the account is banned now. */
async function photoMatch(db: Db, img: ImageRow, now: Date) {
  if (img.matchMemberId === null) return null
  const [other, live] = await Promise.all([
    img.matchImageId === null ? undefined : photoById(db, img.matchImageId),
    liveSanctions(db, img.matchMemberId, now),
  ])
  return {
    member: img.matchMemberId,
    photo: other?.id ?? null,
    thumb_url: other ? `/media/${other.thumbFilename}` : null,
    banned: live.some((s) => s.kind === 'ban'),
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
    verification: {
      pose: v.pose,
      turn: v.turn,
      selfie: v.selfie,
      face: await faceWithBan(db, v.face, now),
    },
  }
}

/** The face scores, the account with the same face marked when it is banned now. */
async function faceWithBan(
  db: Db,
  face: NonNullable<Awaited<ReturnType<typeof verificationCase>>>['face'],
  now: Date,
) {
  if (!face) return null
  if (!face.same_as) return { ...face, same_as: null }
  const live = await liveSanctions(db, face.same_as.member, now)
  return { ...face, same_as: { ...face.same_as, banned: live.some((s) => s.kind === 'ban') } }
}

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
