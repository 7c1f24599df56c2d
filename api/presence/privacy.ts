// A member's privacy choices about live signals (GET/PUT /api/privacy.php):
// read receipts, browsing invisibly, hiding when they were online, and a
// push for visits. No row means every default.
import { eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { memberPrivacy } from '../../db/schema/index.ts'
import type { PrivacySettings, PrivacyUpdate } from '../contract/index.ts'

export const DEFAULT_PRIVACY: PrivacySettings = {
  read_receipts: true,
  browse_invisibly: false,
  hide_online: false,
  visit_push: false,
  verified_only: false,
  blur_photos: true,
}

const columns = {
  read_receipts: memberPrivacy.readReceipts,
  browse_invisibly: memberPrivacy.browseInvisibly,
  hide_online: memberPrivacy.hideOnline,
  visit_push: memberPrivacy.visitPush,
  verified_only: memberPrivacy.verifiedOnly,
  blur_photos: memberPrivacy.blurPhotos,
}

export async function privacyOf(db: Db, memberId: number): Promise<PrivacySettings> {
  const [row] = await db
    .select(columns)
    .from(memberPrivacy)
    .where(eq(memberPrivacy.memberId, memberId))
  return row ?? DEFAULT_PRIVACY
}

/** Changes only what the update names, in one statement (two racing updates of different choices both stick). */
export async function setPrivacy(
  db: Db,
  memberId: number,
  update: PrivacyUpdate,
): Promise<PrivacySettings> {
  const set: Partial<typeof memberPrivacy.$inferInsert> = {}
  if (update.read_receipts !== undefined) set.readReceipts = update.read_receipts
  if (update.browse_invisibly !== undefined) set.browseInvisibly = update.browse_invisibly
  if (update.hide_online !== undefined) set.hideOnline = update.hide_online
  if (update.visit_push !== undefined) set.visitPush = update.visit_push
  if (update.verified_only !== undefined) set.verifiedOnly = update.verified_only
  if (update.blur_photos !== undefined) set.blurPhotos = update.blur_photos
  if (Object.keys(set).length === 0) return privacyOf(db, memberId)
  const [row] = await db
    .insert(memberPrivacy)
    .values({ memberId, ...set })
    .onConflictDoUpdate({ target: memberPrivacy.memberId, set })
    .returning(columns)
  return row ?? privacyOf(db, memberId)
}

/**
 * Whether read receipts pass between these members: both must have them on
 * (a member who sends none sees none either).
 */
export async function readReceiptsBetween(db: Db, a: number, b: number): Promise<boolean> {
  const rows = await db
    .select({ on: memberPrivacy.readReceipts })
    .from(memberPrivacy)
    .where(inArray(memberPrivacy.memberId, [a, b]))
  return rows.every((r) => r.on)
}

/**
 * SQL true when member `id` takes first messages only from verified members
 * (member_privacy.verified_only), for a caller's single statement (the send).
 */
export const verifiedOnlySql = (id: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM member_privacy mp WHERE mp.member_id = ${id} AND mp.verified_only)`
