// Profile pictures.
import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  pgTable,
  real,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { id, ref, ts } from './columns.ts'
import { members } from './members.ts'

export const images = pgTable(
  'images',
  {
    id: id(),
    memberId: ref('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    thumbFilename: text('thumb_filename').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    /**
     * approved | pending. A pending picture (uploaded while the site
     * pre-moderates photos) is seen only by its owner and the moderators, and
     * never becomes members.main_image_id.
     */
    status: text('status').notNull().default('approved'),
    /**
     * A moderator saw it (or it is a seeded demo picture). Guests (logged-out
     * visitors, search engines, prerendered pages, landers) see reviewed
     * pictures only; a member who is logged in also sees an approved picture
     * that still waits for its review. An upload is unreviewed until a
     * moderator approves it from the queue (docs/sites-and-templates.md,
     * "Photos guests see"). The default is for rows written by the seed
     * and by tests; the upload service always sets it, and a pending picture
     * is never reviewed (its review approves it).
     */
    reviewed: boolean('reviewed').notNull().default(true),
    /**
     * The picture's 64-bit perceptual hash (pHash of the stored rendering, as
     * a signed bigint), to find the same photo on another account
     * (docs/trust.md, "Stolen or reused photos"). Null for a picture too flat
     * to tell apart from others and for the seeded demo pictures.
     */
    phash: bigint('phash', { mode: 'bigint' }),
    /**
     * At upload, the closest picture of another account within the match
     * distance, and that account: the moderator sees them beside this one.
     * The picture may be gone since (null), the account stays named.
     */
    matchImageId: ref('match_image_id').references((): AnyPgColumn => images.id, {
      onDelete: 'set null',
    }),
    matchMemberId: ref('match_member_id').references(() => members.id, { onDelete: 'set null' }),
    /**
     * The owner made it private: other members see a locked tile until they
     * unlock it with credits (photo_unlocks); guests, search and landers never
     * see it. Never the main picture. Its files carry PRIVATE_PREFIX
     * (api/images/private.ts), so /media looks up who may see only those.
     */
    private: boolean('private').notNull().default(false),
    /**
     * The face in this picture matched the kept face descriptor of this
     * other account (a consenting verified member: verification's
     * face_descriptors), with this similarity: read by the photo face job
     * after upload (docs/trust.md, "Same face on another account"). The
     * picture's own descriptor is never stored.
     */
    faceMatchMemberId: ref('face_match_member_id').references(() => members.id, {
      onDelete: 'set null',
    }),
    faceMatchScore: real('face_match_score'),
  },
  (t) => [
    index('images_member_idx').on(t.memberId, t.id),
    index('images_pending_idx').on(t.id).where(sql`status = 'pending'`),
    check('images_status_check', sql`"status" IN ('approved', 'pending')`),
    // The moderation queue's photos: every picture no moderator saw yet.
    index('images_unreviewed_idx').on(t.id).where(sql`NOT reviewed`),
    // /media's question for a private file's name: whose picture, and who may see it.
    index('images_private_file_idx').on(t.filename).where(sql`private`),
    index('images_private_thumb_idx').on(t.thumbFilename).where(sql`private`),
  ],
)

/**
 * A member unlocked another's private picture, paid once (the ledger's
 * `unlock` row of the same transaction, reference `unlock:<image>:<viewer>`):
 * one row per picture and viewer, so a replay never charges again. Gone with
 * the picture and with either account.
 */
export const photoUnlocks = pgTable(
  'photo_unlocks',
  {
    id: id(),
    imageId: ref('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    viewerId: ref('viewer_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('photo_unlocks_image_viewer_key').on(t.imageId, t.viewerId),
    index('photo_unlocks_viewer_idx').on(t.viewerId),
  ],
)
