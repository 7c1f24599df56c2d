// The operator's staff: accounts apart from members (a member session never
// reaches the console), their sessions, and the append-only audit log of
// every staff action.
import { sql } from 'drizzle-orm'
import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity()

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
  (t) => [uniqueIndex('staff_email_key').on(t.email)],
)

export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    staffId: bigint('staff_id', { mode: 'number' })
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('staff_sessions_token_key').on(t.tokenHash),
    index('staff_sessions_staff_idx').on(t.staffId),
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
    staffId: bigint('staff_id', { mode: 'number' })
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'login_unlock'>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('staff_tokens_staff_idx').on(t.staffId, t.kind)],
)

/**
 * Every staff action: who, when, what, on whom, why. Append-only: a trigger
 * in the migration refuses UPDATE and DELETE.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    staffId: bigint('staff_id', { mode: 'number' })
      .notNull()
      .references(() => staff.id),
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
  ],
)
