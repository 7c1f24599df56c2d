// Moderation: sanctions on members (each with its statement of reasons and
// an appeal token mailed to the member) and appeals of them. Foreign keys to
// members and staff are declared in 0015_moderation.sql (importing members
// from db/schema.ts here would be an import cycle).
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })
const ref = (name: string) => bigint(name, { mode: 'number' })

export const sanctions = pgTable(
  'sanctions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    memberId: ref('member_id').notNull(),
    /** warn | suspend | ban | remove_photo | remove_text (api/contract/operator/moderation.ts). */
    kind: text('kind').notNull(),
    /** The site rule it breaks (MODERATION_RULES). */
    rule: text('rule').notNull(),
    reason: text('reason').notNull(),
    /** The queue item it decided: report | complaint. */
    itemType: text('item_type'),
    itemId: ref('item_id'),
    startsAt: ts('starts_at').notNull().defaultNow(),
    /** A suspension's end; null for a ban (until lifted) and the one-off kinds. */
    endsAt: ts('ends_at'),
    staffId: ref('staff_id').notNull(),
    /** SHA-256 of the token in the statement of reasons: it lets a logged-out member appeal. */
    appealTokenHash: text('appeal_token_hash').notNull(),
    liftedAt: ts('lifted_at'),
    liftedBy: ref('lifted_by'),
  },
  (t) => [
    index('sanctions_member_idx').on(t.memberId, t.id),
    uniqueIndex('sanctions_appeal_token_key').on(t.appealTokenHash),
  ],
)

export const appeals = pgTable('appeals', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  sanctionId: ref('sanction_id').notNull(),
  text: text('text').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  decidedAt: ts('decided_at'),
  decidedBy: ref('decided_by'),
  /** upheld | lifted */
  outcome: text('outcome'),
  reason: text('reason'),
  actionSeconds: integer('action_seconds'),
})
