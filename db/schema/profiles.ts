// Profile pictures.
import { sql } from 'drizzle-orm'
import { check, index, pgTable, text } from 'drizzle-orm/pg-core'
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
  },
  (t) => [
    index('images_member_idx').on(t.memberId, t.id),
    index('images_pending_idx').on(t.id).where(sql`status = 'pending'`),
    check('images_status_check', sql`"status" IN ('approved', 'pending')`),
  ],
)
