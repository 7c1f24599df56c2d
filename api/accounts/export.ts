// A member's data as one machine-readable JSON document (GDPR Art. 15 access
// and Art. 20 portability): what the site holds about them, for the member
// themself (GET /api/account_export.php) and for staff answering a request
// (the console). Secrets stay out: no password hash, no session tokens, no
// push keys. Other members appear by id and name only, as far as they are
// part of this member's own data (a like, a conversation).
import { eq, inArray } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { members } from '../../db/schema/index.ts'
import { ageExport } from '../age/index.ts'
import { conversationsExport } from '../chats/index.ts'
import { ledgerExport } from '../credits/index.ts'
import { type PictureStore, photosExport } from '../images/index.ts'
import { likesExport } from '../likes/index.ts'
import { ordersExport } from '../payments/index.ts'
import { pushSubscriptionsExport } from '../push/index.ts'
import { sessionsExport } from '../sessions/index.ts'
import { reportsMadeExport } from '../shared/reports.ts'
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
  // Each domain says what it holds of the member; other members come by id,
  // named here.
  const photos = await photosExport(db, memberId, {
    base,
    mainImageId: m.mainImageId,
    ...(pictures ? { pictures } : {}),
  })
  const likes = await likesExport(db, memberId)
  const conversations = await conversationsExport(db, memberId, pictures)
  const names = await namesOf(db, [
    ...likes.given.map((l) => l.member),
    ...likes.received.map((l) => l.member),
    ...conversations.map((c) => c.with),
    ...photos.flatMap((p) => p.unlocked_by.map((u) => u.member)),
  ])
  const person = (id: number): Person => ({ id, name: names.get(id) ?? null })
  return {
    format: EXPORT_FORMAT,
    exported_at: at.toISOString(),
    account: accountOf(m),
    profile: profileOf(m),
    photos: photos.map((p) => ({
      ...p,
      unlocked_by: p.unlocked_by.map((u) => ({ ...u, member: person(u.member) })),
    })),
    likes_given: likes.given.map((l) => ({ ...l, member: person(l.member) })),
    likes_received: likes.received.map((l) => ({ ...l, member: person(l.member) })),
    conversations: conversations.map((c) => ({ ...c, with: person(c.with) })),
    credit_ledger: await ledgerExport(db, memberId),
    orders: await ordersExport(db, memberId),
    sessions: await sessionsExport(db, memberId),
    push_subscriptions: await pushSubscriptionsExport(db, memberId),
    reports_made: await reportsMadeExport(db, memberId),
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
