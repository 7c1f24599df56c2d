// Age assurance (DSA Art. 28): the open presentation requests, and of each
// member only the result, its time and the provider. Never the document or
// any of its attributes (docs/age-assurance.md).
import { foreignKey, index, pgTable, text } from 'drizzle-orm/pg-core'
import { ref, ts } from './columns.ts'
import { members } from './members.ts'

/**
 * One presentation request sent to a member's wallet. The nonce binds the
 * wallet's answer to it; the first answer closes it (state leaves
 * `pending`), so a replay or a late answer changes nothing.
 */
export const ageRequests = pgTable(
  'age_requests',
  {
    /** Random, URL-safe: it names the request in the response URI. */
    id: text('id').primaryKey(),
    memberId: ref('member_id').notNull(),
    provider: text('provider').notNull(),
    nonce: text('nonce').notNull(),
    /** pending | passed | refused (a presentation that failed or did not prove 18+) */
    state: text('state').notNull().default('pending'),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    answeredAt: ts('answered_at'),
    /**
     * The OpenID4VP `state` of the request: made on the first fetch of the
     * request object and sent in that one only (api/age/age.ts), so only
     * the wallet that fetched it has it. An error answer (the holder
     * declined) counts only with it. Null until that fetch.
     */
    walletState: text('wallet_state'),
  },
  (t) => [
    index('age_requests_member_idx').on(t.memberId, t.createdAt),
    foreignKey({
      name: 'age_requests_member_id_fkey',
      columns: [t.memberId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
  ],
)

/** A member who proved to be 18 or older: the result, when, and through which provider. */
export const ageAssurance = pgTable(
  'age_assurance',
  {
    memberId: ref('member_id').primaryKey(),
    /** Always 'over_18' today: a failed check is not kept. */
    result: text('result').notNull(),
    provider: text('provider').notNull(),
    assuredAt: ts('assured_at').notNull(),
  },
  (t) => [
    foreignKey({
      name: 'age_assurance_member_id_fkey',
      columns: [t.memberId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
  ],
)
