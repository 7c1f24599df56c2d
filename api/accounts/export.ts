// A member's data as one machine-readable JSON document (GDPR Art. 15 access
// and Art. 20 portability): what the site holds about them, for the member
// themself (GET /api/account_export.php) and for staff answering a request
// (the console). Secrets stay out: no password hash, no session tokens, no
// push keys. Other members appear by id and name only, as far as they are
// part of this member's own data (a like, a conversation).
import { asc, desc, eq, inArray, or } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import {
  conversationMembers,
  conversations,
  creditLedger,
  images,
  likes,
  members,
  messages,
  orders,
  pushSubscriptions,
  reports,
  sessions,
} from '../../db/schema/index.ts'
import { ageExport } from '../age/index.ts'
import { type PictureStore, pictureDataUrl } from '../images/index.ts'
import { deviceOf } from '../sessions/index.ts'
import { verificationExport } from '../verification/index.ts'

/** The version of the document's shape, so a reader knows what it holds. */
export const EXPORT_FORMAT = 1

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/**
 * The export of member `memberId`, or null when there is no such member.
 * Each photo comes with its picture read from `pictures` (a `data:` URL, null
 * when the store has none by that name): the document stays complete after
 * the account, and so its pictures, are deleted.
 */
export async function exportMember(
  db: Db,
  memberId: number,
  base: string,
  at: Date,
  pictures?: PictureStore,
): Promise<Record<string, unknown> | null> {
  const [m] = await db.select().from(members).where(eq(members.id, memberId))
  if (!m) return null
  const photos = await db
    .select()
    .from(images)
    .where(eq(images.memberId, memberId))
    .orderBy(asc(images.id))
  const social = await readLikesAndChats(db, memberId)
  const others = social.convs.map((c) => (c.memberLow === memberId ? c.memberHigh : c.memberLow))
  const names = await namesOf(db, [
    ...social.given.map((l) => l.likedId),
    ...social.received.map((l) => l.likerId),
    ...others,
  ])
  const person = (id: number) => ({ id, name: names.get(id) ?? null })
  const records = await readRecords(db, memberId)
  const pictureData: (string | null)[] = []
  for (const p of photos) {
    pictureData.push(pictures ? await pictureDataUrl(pictures, p.filename) : null)
  }
  return {
    format: EXPORT_FORMAT,
    exported_at: at.toISOString(),
    account: accountOf(m),
    profile: profileOf(m),
    photos: photos.map((p, i) => ({
      id: p.id,
      url: `${base}/media/${p.filename}`,
      thumbnail_url: `${base}/media/${p.thumbFilename}`,
      picture: pictureData[i] ?? null,
      uploaded_at: iso(p.createdAt),
      main: p.id === m.mainImageId,
    })),
    likes_given: social.given.map((l) => ({ member: person(l.likedId), at: iso(l.createdAt) })),
    likes_received: social.received.map((l) => ({
      member: person(l.likerId),
      at: iso(l.createdAt),
    })),
    conversations: conversationsOf(social, others, person, memberId),
    ...recordsOf(records),
    // Each domain says what it holds (api/age, api/verification).
    age_assurance: await ageExport(db, memberId),
    photo_verification: await verificationExport(db, memberId),
    sign_up: { trafficsource: m.trafficsource ?? null, signup_meta: m.signupMeta ?? null },
  }
}

type Member = typeof members.$inferSelect
type Person = { id: number; name: string | null }

/** The names of members, by id (other members appear by id and name only). */
async function namesOf(db: Db, ids: number[]) {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Map<number, string>()
  const rows = await db
    .select({ id: members.id, name: members.name })
    .from(members)
    .where(inArray(members.id, unique))
  return new Map(rows.map((r) => [r.id, r.name]))
}

/** The member's likes both ways, conversations, their messages and the ones they hid. */
async function readLikesAndChats(db: Db, memberId: number) {
  const given = await db
    .select()
    .from(likes)
    .where(eq(likes.likerId, memberId))
    .orderBy(desc(likes.createdAt))
  const received = await db
    .select()
    .from(likes)
    .where(eq(likes.likedId, memberId))
    .orderBy(desc(likes.createdAt))
  const convs = await db
    .select()
    .from(conversations)
    .where(or(eq(conversations.memberLow, memberId), eq(conversations.memberHigh, memberId)))
    .orderBy(asc(conversations.id))
  const convIds = convs.map((c) => c.id)
  const msgs =
    convIds.length === 0
      ? []
      : await db
          .select()
          .from(messages)
          .where(inArray(messages.conversationId, convIds))
          .orderBy(asc(messages.id))
  const hidden = await db
    .select()
    .from(conversationMembers)
    .where(eq(conversationMembers.memberId, memberId))
  return { given, received, convs, msgs, hidden }
}

/** The member's credits, orders, sessions, push subscriptions and the reports they made. */
async function readRecords(db: Db, memberId: number) {
  const ledger = await db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.memberId, memberId))
    .orderBy(asc(creditLedger.id))
  const orderRows = await db
    .select()
    .from(orders)
    .where(eq(orders.memberId, memberId))
    .orderBy(asc(orders.id))
  const sessionRows = await db
    .select()
    .from(sessions)
    .where(eq(sessions.memberId, memberId))
    .orderBy(asc(sessions.id))
  const subs = await db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.memberId, memberId))
    .orderBy(asc(pushSubscriptions.id))
  const made = await db
    .select()
    .from(reports)
    .where(eq(reports.reporterId, memberId))
    .orderBy(asc(reports.id))
  return { ledger, orderRows, sessionRows, subs, made }
}

const accountOf = (m: Member) => ({
  id: m.id,
  email: m.email,
  signup_date: iso(m.signupDate),
  activated_at: iso(m.activatedAt),
  deleted_at: iso(m.deletedAt),
  last_active_at: iso(m.lastActiveAt),
  language: m.language,
  timezone: m.timezone,
  paid_user: m.paidUser,
  credits: m.credits,
})

const profileOf = (m: Member) => ({
  name: m.name,
  gender: m.gender,
  date_of_birth: m.dateOfBirth,
  country: m.country,
  countryregion: m.countryregion,
  city: m.city,
  personal: m.personal,
  profile_fields: m.profileFields ?? {},
  notes: m.notes ?? {},
  saved_search: m.savedSearch ?? null,
})

/** Each conversation with the other member, when the member hid it and its messages. */
function conversationsOf(
  { convs, msgs, hidden }: Awaited<ReturnType<typeof readLikesAndChats>>,
  others: number[],
  person: (id: number) => Person,
  memberId: number,
) {
  return convs.map((c, i) => {
    const other = others[i] as number
    return {
      id: c.id,
      with: person(other),
      started_at: iso(c.createdAt),
      hidden_at: iso(hidden.find((h) => h.conversationId === c.id)?.hiddenAt ?? null),
      messages: msgs
        .filter((x) => x.conversationId === c.id)
        .map((x) => ({
          id: x.id,
          direction: x.senderId === memberId ? 'sent' : 'received',
          body: x.body,
          at: iso(x.createdAt),
        })),
    }
  })
}

function recordsOf({
  ledger,
  orderRows,
  sessionRows,
  subs,
  made,
}: Awaited<ReturnType<typeof readRecords>>) {
  return {
    credit_ledger: ledger.map((l) => ({
      delta: l.delta,
      reason: l.reason,
      reference: l.reference,
      balance_after: l.balanceAfter,
      at: iso(l.createdAt),
    })),
    orders: orderRows.map((o) => ({
      id: o.publicId,
      status: o.status,
      package: o.packageId,
      method: o.method,
      currency: o.currency,
      amount_minor: o.amount,
      credits: o.credits,
      credits_taken_back: o.reversedCredits,
      discount_code: o.discountCode,
      created_at: iso(o.createdAt),
    })),
    sessions: sessionRows.map((s) => ({
      ...deviceOf(s.userAgent),
      user_agent: s.userAgent,
      created_at: iso(s.createdAt),
      last_seen_at: iso(s.lastSeenAt),
      expires_at: iso(s.expiresAt),
    })),
    // The endpoint says which push service holds the subscription; its keys
    // are secrets of the member's device and stay out.
    push_subscriptions: subs.map((s) => ({
      push_service: safeOrigin(s.endpoint),
      created_at: iso(s.createdAt),
    })),
    reports_made: made.map((r) => ({
      id: r.id,
      reported_member: r.reportedId,
      message_id: r.messageId,
      reason: r.reason,
      text: r.text,
      status: r.status,
      at: iso(r.createdAt),
    })),
  }
}

function safeOrigin(endpoint: string): string | null {
  try {
    return new URL(endpoint).origin
  } catch {
    return null
  }
}
