// The operator's staff: accounts apart from members (a member session never
// reaches the console), their sessions, and the append-only audit log of
// every staff action.
import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  foreignKey,
  index,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { id, ref, ts } from './columns.ts'

export const staff = pgTable(
  'staff',
  {
    id: id(),
    /** Stored lower-cased. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Base32 TOTP secret (RFC 6238, SHA-1, 6 digits, 30 s). */
    totpSecret: text('totp_secret').notNull(),
    /** The last time step whose code was accepted: a code works once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }).notNull().default(0),
    /** moderator | support | finance | admin (api/contract/rules/staff.ts). */
    roles: text('roles').array().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** A disabled staff account cannot sign in; its sessions end. Staff rows are never deleted (the audit log names them). */
    disabledAt: ts('disabled_at'),
  },
  (t) => [
    uniqueIndex('staff_email_key').on(t.email),
    check(
      'staff_roles_check',
      sql`cardinality("roles") > 0 AND "roles" <@ ARRAY['moderator', 'support', 'finance', 'admin']::text[]`,
    ),
  ],
)

export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    staffId: ref('staff_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('staff_sessions_token_key').on(t.tokenHash),
    index('staff_sessions_staff_idx').on(t.staffId),
    foreignKey({
      name: 'staff_sessions_staff_id_fkey',
      columns: [t.staffId],
      foreignColumns: [staff.id],
    }).onDelete('cascade'),
  ],
)

/**
 * Single-use links mailed to a staff member (the console's login unlock),
 * like members' account_tokens: only the SHA-256 of the token is stored;
 * `usedAt` makes it single-use.
 */
export const staffTokens = pgTable(
  'staff_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    staffId: ref('staff_id').notNull(),
    kind: text('kind').$type<'login_unlock'>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [
    index('staff_tokens_staff_idx').on(t.staffId, t.kind),
    foreignKey({
      name: 'staff_tokens_staff_id_fkey',
      columns: [t.staffId],
      foreignColumns: [staff.id],
    }).onDelete('cascade'),
  ],
)

/**
 * Every staff action: who, when, what, on whom, why. Append-only: the
 * trigger audit_log_no_change (function audit_log_append_only) refuses
 * UPDATE, DELETE and TRUNCATE. drizzle cannot declare triggers or functions,
 * so they live in 0013_staff.sql only.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    /** Null: the machine acted, no person (face_match = auto approving a verification). */
    staffId: ref('staff_id'),
    /** A dotted verb: `staff.login`, `member.suspend`, `credits.adjust`, `site.update`, ... */
    action: text('action').notNull(),
    /** What it acted on: member | report | complaint | photo | site | job | staff | payment. */
    targetType: text('target_type'),
    targetId: text('target_id'),
    reason: text('reason'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.id),
    index('audit_log_staff_idx').on(t.staffId, t.id),
    foreignKey({
      name: 'audit_log_staff_id_fkey',
      columns: [t.staffId],
      foreignColumns: [staff.id],
    }),
  ],
)
