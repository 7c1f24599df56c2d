// Likes between members.
import { boolean, index, pgTable, primaryKey } from 'drizzle-orm/pg-core'
import { ref, ts } from './columns.ts'
import { members } from './members.ts'

export const likes = pgTable(
  'likes',
  {
    likerId: ref('liker_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    likedId: ref('liked_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** Spec §3 liked_by.like_new: cleared when the liked member opens it. */
    isNew: boolean('is_new').notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.likerId, t.likedId] }),
    // In the ORDER BY's order (DESC NULLS FIRST, PostgreSQL's DESC), so a
    // page is an index range and every liked id is read from the index alone.
    index('likes_given_idx').on(
      t.likerId,
      t.createdAt.desc().nullsFirst(),
      t.likedId.desc().nullsFirst(),
    ),
    index('likes_received_idx').on(
      t.likedId,
      t.isNew.desc().nullsFirst(),
      t.createdAt.desc().nullsFirst(),
      t.likerId.desc().nullsFirst(),
    ),
  ],
)
