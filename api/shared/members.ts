// A member as every domain reads one: the row of a member who has not been
// deleted. The account rules (sign-up, deletion, the User answer) are
// api/accounts/'s; this read is shared so that profiles, chats, search and
// cams need not reach into the accounts domain for it.
import { and, eq, getTableColumns, inArray, isNull, type SQL, sql } from 'drizzle-orm'
import { QueryBuilder } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/client.ts'
import { members } from '../../db/schema/index.ts'

export type MemberRow = typeof members.$inferSelect

/**
 * The member columns a Profile is made of (api/profiles builds the answer
 * from them): long lists (likes) select only these, not the whole row
 * (password hash, JSON columns) of thousands of members.
 */
export const profileColumns = {
  id: members.id,
  name: members.name,
  dateOfBirth: members.dateOfBirth,
  city: members.city,
  country: members.country,
  countryregion: members.countryregion,
  gender: members.gender,
  personal: members.personal,
  mainImageId: members.mainImageId,
  fictional: members.fictional,
  verifiedAt: members.verifiedAt,
  /**
   * When the member was last seen (ms since the epoch), as others may know
   * it: members.public_seen_at, kept by the database (the later of their
   * newest session use, renewed at most every SESSION_TOUCH_S, and the
   * page-hidden beacon's last activity; null when they hide it). Answered as
   * `last_active`.
   */
  seenMs: sql<number | null>`extract(epoch FROM ${members.publicSeenAt}) * 1000`
    .mapWith((v: unknown) => (v === null ? null : Number(v)))
    .as('seen_ms'),
}

/**
 * Live members' profile columns as a subquery a domain joins in its own
 * statement (`.innerJoin(liveProfiles, eq(liveProfiles.id, x.memberId))`,
 * then `liveProfiles.name`, ...): PostgreSQL flattens it into a plain join.
 */
export const liveProfiles = new QueryBuilder()
  .select(profileColumns)
  .from(members)
  .where(isNull(members.deletedAt))
  .as('live_profiles')

/** The fields of liveProfiles under profileColumns' names, for a select. */
export const liveProfileColumns = Object.fromEntries(
  Object.keys(profileColumns).map((k) => [k, liveProfiles[k as keyof typeof profileColumns]]),
) as { [K in keyof typeof profileColumns]: (typeof liveProfiles)[K] }

/** When one member was last seen, as profileColumns.seenMs reads it (null: hidden, or unknown). */
export async function seenMsOf(db: Db, memberId: number): Promise<number | null> {
  const [row] = await db
    .select({ seenMs: profileColumns.seenMs })
    .from(members)
    .where(eq(members.id, memberId))
  return row?.seenMs ?? null
}

/** The member's row, or undefined when there is none or it was deleted. */
export async function liveMember(db: Db, id: number): Promise<MemberRow | undefined> {
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.id, id), isNull(members.deletedAt)))
  return row
}

/**
 * The named columns of member `id`'s row, deleted or not (`deletedAt` tells),
 * or undefined when there is none: for a domain that needs a field or two
 * of the member (their country, language, whether they paid).
 */
export async function memberFields<K extends keyof MemberRow>(
  db: Db,
  id: number,
  keys: readonly K[],
): Promise<Pick<MemberRow, K> | undefined> {
  const all = getTableColumns(members)
  const columns = Object.fromEntries(keys.map((k) => [k, all[k]]))
  const [row] = await db.select(columns).from(members).where(eq(members.id, id))
  return row as Pick<MemberRow, K> | undefined
}

/**
 * Locks member `id`'s row until `tx` ends, so that what one member does
 * twice at once is counted one after the other (their pictures' limit).
 */
export async function lockMember(tx: Db, id: number): Promise<void> {
  await tx.execute(sql`SELECT 1 FROM ${members} WHERE ${members.id} = ${id} FOR UPDATE`)
}

/**
 * Sets member `id`'s main picture (members.main_image_id; which one is
 * api/images's rule): `replacing` null only when none is set, a picture's id
 * only while that one is main, undefined always.
 */
export async function setMainImageId(
  tx: Db,
  id: number,
  imageId: number | null,
  replacing?: number | null,
): Promise<void> {
  await tx
    .update(members)
    .set({ mainImageId: imageId })
    .where(
      and(
        eq(members.id, id),
        replacing === undefined
          ? undefined
          : replacing === null
            ? isNull(members.mainImageId)
            : eq(members.mainImageId, replacing),
      ),
    )
}

/**
 * An UPDATE of member `id`'s row for a caller's single statement: the
 * assignments `set` when `when` holds, returning `returning`. What changes
 * is the caller's rule; the balance is the ledger's alone
 * (api/credits/ledger.ts), which moves it with its row.
 */
export const updateMemberSql = (id: SQL, set: SQL, when: SQL, returning: SQL): SQL =>
  sql`UPDATE members SET ${set} WHERE id = ${id} AND ${when} RETURNING ${returning}`

/**
 * updateMemberSql for a member per row of `from` (a FROM item: no member
 * twice, as an UPDATE changes a row once): `id` is an expression over it;
 * returns each member's `id` and `returning`.
 */
export const updateMembersFromSql = (from: SQL, id: SQL, set: SQL, returning: SQL): SQL =>
  sql`UPDATE members SET ${set} FROM ${from} WHERE members.id = ${id} RETURNING members.id, ${returning}`

/**
 * The paying member's row for a caller's single statement: `id`, `credits`
 * and `signup_date` of member `id`, locked (FOR UPDATE), so the balance read
 * is the one the statement's debit leaves, whatever a concurrent spend did.
 */
export const payerRowSql = (id: SQL): SQL =>
  sql`SELECT ${payerColumns} FROM members m WHERE m.id = ${id} FOR UPDATE`

const payerColumns = sql`m.id, m.credits, m.signup_date`

/**
 * payerRowSql for several payers in one statement (the gathered send,
 * api/chats/send-batch.ts): a row per row of `from` (a FROM item, one row
 * per payer: no member twice) with the columns `carry` names before the
 * payer's, each payer's row locked in the order of their ids, so two such
 * statements lock shared payers in one order.
 */
export const payerRowsSql = (e: { from: SQL; id: SQL; carry: SQL }): SQL =>
  sql`SELECT ${e.carry}, ${payerColumns} FROM ${e.from} JOIN members m ON m.id = ${e.id}
    ORDER BY m.id FOR UPDATE OF m`

/**
 * The live (not deleted) members as a FROM item of a caller's single
 * statement, to alias (`FROM ${liveMembersSql} r`): liveMember's rule for a
 * statement that reads a few columns of members beside its own tables.
 */
export const liveMembersSql: SQL = sql`(SELECT * FROM members WHERE deleted_at IS NULL)`

/**
 * The join of the live member whose id is `id` (SQL over the query's other
 * tables), for a drizzle query that reads their columns:
 * `.innerJoin(...liveMemberJoin(sql\`${likes.likedId}\`))`.
 */
export const liveMemberJoin = (id: SQL) =>
  [members, and(eq(members.id, id), isNull(members.deletedAt))] as const

/** SQL true when member `id` exists and was not deleted (liveMember, for a caller's single statement). */
export const liveMemberSql = (id: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM members lm WHERE lm.id = ${id} AND lm.deleted_at IS NULL)`

/** SQL true when member `id` is a live member and a real one (not a fictional profile). */
export const liveRealMemberSql = (id: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM members rm
    WHERE rm.id = ${id} AND rm.deleted_at IS NULL AND NOT rm.fictional)`

/** SQL true when member `id` passed photo verification (members.verified_at). */
export const verifiedMemberSql = (id: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM members vm WHERE vm.id = ${id} AND vm.verified_at IS NOT NULL)`

/** A moderator removed the member's own texts (remove_text): the profile text and notes. */
export async function clearMemberTexts(tx: Db, id: number): Promise<void> {
  await tx.update(members).set({ personal: null, notes: null }).where(eq(members.id, id))
}

/**
 * A moderator approved profile texts held for review
 * (api/moderation/profile-texts.ts): the held fields go live.
 */
export async function publishMemberTexts(
  tx: Db,
  id: number,
  texts: { name?: string; personal?: string | null; notes?: Record<string, string> },
): Promise<void> {
  const set: Partial<typeof members.$inferInsert> = {}
  if (texts.name !== undefined) set.name = texts.name
  if (texts.personal !== undefined) set.personal = texts.personal
  if (texts.notes !== undefined) set.notes = texts.notes
  if (Object.keys(set).length > 0) await tx.update(members).set(set).where(eq(members.id, id))
}

/** A moderator (un)marked the member's profile as fictional. */
export async function setFictional(tx: Db, id: number, fictional: boolean): Promise<void> {
  await tx.update(members).set({ fictional }).where(eq(members.id, id))
}

/**
 * memberFields of several members in one query: the rows there are, deleted
 * or not, in no particular order (push reads sender and recipient at once).
 */
export async function membersFields<K extends keyof MemberRow>(
  db: Db,
  ids: readonly number[],
  keys: readonly K[],
): Promise<Pick<MemberRow, K | 'id'>[]> {
  const all = getTableColumns(members)
  const columns = Object.fromEntries([...new Set(['id', ...keys])].map((k) => [k, all[k as K]]))
  const rows = await db
    .select(columns)
    .from(members)
    .where(inArray(members.id, [...ids]))
  return rows as Pick<MemberRow, K | 'id'>[]
}

/**
 * memberFields under the row's lock (SELECT ... FOR UPDATE), in the caller's
 * transaction: for a money path that decides on the balance it then changes
 * (a refund, a withdrawal), so that no concurrent one sees the same balance.
 */
export async function lockedMemberFields<K extends keyof MemberRow>(
  tx: Db,
  id: number,
  keys: readonly K[],
): Promise<Pick<MemberRow, K> | undefined> {
  const all = getTableColumns(members)
  const columns = Object.fromEntries(keys.map((k) => [k, all[k]]))
  const [row] = await tx.select(columns).from(members).where(eq(members.id, id)).for('update')
  return row as Pick<MemberRow, K> | undefined
}

/**
 * Spec §3 paid_user: the first paid order makes a paying member (§6: no
 * webcam tiles). In the transaction that grants the order; the member's name,
 * address and language for the receipt, or undefined when there is no member.
 */
export async function markPaidUser(
  tx: Db,
  id: number,
): Promise<Pick<MemberRow, 'name' | 'email' | 'language'> | undefined> {
  const [row] = await tx
    .update(members)
    .set({ paidUser: true })
    .where(eq(members.id, id))
    .returning({ name: members.name, email: members.email, language: members.language })
  return row
}

/**
 * A moderator approved member `id`'s photo verification: members.verified_at
 * is set to `at`, unless they were verified before (the first time stays).
 */
export async function markVerified(tx: Db, id: number, at: Date): Promise<void> {
  await tx
    .update(members)
    .set({ verifiedAt: at })
    .where(and(eq(members.id, id), isNull(members.verifiedAt)))
}
