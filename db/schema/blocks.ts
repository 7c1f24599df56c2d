// Blocks between members.
import { foreignKey, index, pgTable, primaryKey } from 'drizzle-orm/pg-core'
import { ref, ts } from './columns.ts'
import { members } from './members.ts'

/** A member who blocked another: neither sees the other, and no messages pass. */
export const blocks = pgTable(
  'blocks',
  {
    blockerId: ref('blocker_id').notNull(),
    blockedId: ref('blocked_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'blocks_pkey', columns: [t.blockerId, t.blockedId] }),
    index('blocks_blocked_idx').on(t.blockedId),
    foreignKey({
      name: 'blocks_blocker_id_fkey',
      columns: [t.blockerId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'blocks_blocked_id_fkey',
      columns: [t.blockedId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
  ],
)
