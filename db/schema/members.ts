// Members and their accounts: the member row, the single-use links mailed to
// them, and the idempotency records of their actions and of staff actions.
import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  date,
  index,
  integer,
  type PgColumn,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { id, jsonb, ref, ts } from './columns.ts'
import { staff } from './staff.ts'

/**
 * 0003_members_autovacuum.sql also sets storage parameters on the table
 * (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold); drizzle
 * cannot declare those, so they live in that migration only.
 */
export const members = pgTable(
  'members',
  {
    id: id(),
    /** Stored lower-cased; the unique index is what makes sign-up race-safe. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    /** 'male' | 'female' (the values of /api/profile_fields.php). */
    gender: text('gender').notNull(),
    dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
    /** ISO 3166-1 alpha-2, upper case. */
    country: text('country').notNull(),
    /** ISO 3166-2 subdivision code, e.g. NL-NH. */
    countryregion: text('countryregion'),
    city: text('city'),
    personal: text('personal'),
    language: text('language').notNull().default('en'),
    paidUser: boolean('paid_user').notNull().default(false),
    /**
     * Credits balance. Changed only through the ledger (api/credits/ledger.ts)
     * with a conditional update; never negative (members_credits_not_negative).
     */
    credits: integer('credits').notNull().default(0),
    fictional: boolean('fictional').notNull().default(false),
    /**
     * When a moderator approved the member's posed selfie (photo
     * verification, api/verification/); null: not verified. It stays when
     * the member later changes their photos (docs/operator-console.md).
     */
    verifiedAt: ts('verified_at'),
    /** Spec §3: 2 means Gmail. */
    mailprovider: smallint('mailprovider').notNull().default(0),
    signupDate: ts('signup_date').notNull().defaultNow(),
    lastActiveAt: ts('last_active_at').notNull().defaultNow(),
    /**
     * When the member was last seen, as others may know it (docs/live.md
     * "Online now"): the later of their newest session use and
     * last_active_at; null while they hide it (member_privacy.hide_online).
     * Kept by triggers of 0027_last-seen.sql (drizzle cannot declare them) on
     * sessions, members and member_privacy, so every writer keeps it right.
     */
    publicSeenAt: ts('public_seen_at'),
    /**
     * The member's activity as the search may order by it (docs/search.md
     * "Members who hide when they were online"): last_active_at, or their
     * sign-up time while they hide when they were online
     * (member_privacy.hide_online), so their place in the default order
     * never moves with their activity. Kept by triggers of
     * 0029_public-activity.sql (drizzle cannot declare them) on members and
     * member_privacy; the default fills it before the insert trigger does.
     */
    publicActiveAt: ts('public_active_at').notNull().defaultNow(),
    activatedAt: ts('activated_at'),
    deletedAt: ts('deleted_at'),
    /** No foreign key (images references members): kept right by the picture services. */
    mainImageId: ref('main_image_id'),
    lastSignupStep: smallint('last_signup_step').notNull().default(0),
    /** The member's last manual search (spec §7 do_not_save). */
    savedSearch: jsonb('saved_search'),
    /** Optional profile select fields (GET /api/profile_fields.php), by field name. */
    profileFields: jsonb('profile_fields').$type<Record<string, string>>(),
    /** Free-text notes fields beyond `personal` (settings.visible_profile_notes). */
    notes: jsonb('notes').$type<Record<string, string>>(),
    timezone: text('timezone').notNull().default('UTC'),
    /** Spec §3 tracking record "network" and the rest of the sign-up payload's context. */
    trafficsource: jsonb('trafficsource'),
    signupMeta: jsonb('signup_meta'),
    /** The site signed up on: the `sites` key its host matched, '' for the server-wide site (0017). */
    signupSite: text('signup_site'),
  },
  (t) => [
    uniqueIndex('members_email_key').on(t.email),
    // Search (spec §7, api/search/search.ts): gender and country are always
    // set, the region sometimes, the age is a date_of_birth range; results
    // are ordered by recent activity as others may know it (public_active_at,
    // never a hiding member's own activity). Partial on live members, so deleted ones
    // cost nothing. Each index holds every column the search reads, so
    // PostgreSQL answers from the index alone (index-only scan, no table
    // reads): the age range is checked on the index entry, and OFFSET skips
    // index entries, not rows. date_of_birth trails the order columns as a
    // key column because drizzle has no INCLUDE; it works the same.
    // `.desc().nullsFirst()` is load-bearing: ORDER BY x DESC means NULLS
    // FIRST, and drizzle's bare `.desc()` makes a NULLS LAST index that cannot
    // serve it (PostgreSQL would sort instead).
    // Measured at a million members in bench/search.ts (docs/search.md, bench/RESULTS.md).
    // The page, in order: equality prefix, then the ORDER BY.
    index('members_search_order_idx')
      .on(
        t.gender,
        t.country,
        t.publicActiveAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
        t.dateOfBirth,
      )
      .where(sql`deleted_at IS NULL`),
    // The same with a region: without it a small region of a large country
    // would be found by walking the whole country.
    index('members_search_region_order_idx')
      .on(
        t.gender,
        t.country,
        t.countryregion,
        t.publicActiveAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
        t.dateOfBirth,
      )
      .where(sql`deleted_at IS NULL`),
    // The age range as a contiguous key range: the (capped) count reads only
    // matching entries, however narrow the age bucket. With public_active_at
    // and id it also serves deep pages of a narrow bucket in a large country
    // (read the range, sort it) where walking the order index would skip
    // tens of thousands of older and younger members; the planner picks.
    index('members_search_age_idx')
      .on(t.gender, t.country, t.dateOfBirth, t.publicActiveAt, t.id)
      .where(sql`deleted_at IS NULL`),
    // Search sorted online first (sort=online): the same equality prefix,
    // then who was seen last, members who hide it (null) at the end. The
    // region is a trailing key so a search with one stays index-only.
    index('members_search_online_idx')
      .on(
        t.gender,
        t.country,
        t.publicSeenAt.desc().nullsLast(),
        t.id.desc().nullsFirst(),
        t.dateOfBirth,
        t.countryregion,
      )
      .where(sql`deleted_at IS NULL`),
    check('members_credits_not_negative', sql`"credits" >= 0`),
  ],
)

/**
 * The records of applied client ids (docs/architecture.md, "The API"): every
 * action that changes data carries a client-generated id; the effect and its
 * record are written in one transaction, so a replay finds the record and
 * gets the first answer without applying anything again. One table per kind
 * of actor, the same columns; written and read only through
 * api/http/idempotency.ts.
 */
const actionRecords = <N extends string>(name: N, actor: string, actors: () => PgColumn) =>
  pgTable(
    name,
    {
      actorId: ref(actor).notNull().references(actors, { onDelete: 'cascade' }),
      clientId: uuid('client_id').notNull(),
      kind: text('kind').notNull(),
      response: jsonb('response').notNull(),
      createdAt: ts('created_at').notNull().defaultNow(),
    },
    (t) => [primaryKey({ columns: [t.actorId, t.clientId] })],
  )

/** A member's actions (the app, and the refund job of a withdrawal). */
export const memberActions = actionRecords('member_actions', 'member_id', () => members.id)
/** A staff member's actions (the console's credit adjustments and refunds). */
export const staffActions = actionRecords('staff_actions', 'staff_id', () => staff.id)

/**
 * Single-use links mailed to a member: activation, password reset, mail
 * change, login unlock. Only the SHA-256 of the token is stored; `usedAt`
 * makes it single-use.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    memberId: ref('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'activate' | 'reset' | 'mail_change' | 'login_unlock'>().notNull(),
    /** The new address of a mail change; it takes effect when the link is followed. */
    newEmail: text('new_email'),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('account_tokens_member_idx').on(t.memberId, t.kind)],
)
