// Single-use, expiring tokens for mailed links (activation, password reset,
// mail change, login unlock). 256 random bits go into the link; only their SHA-256 is
// stored, so a leaked table opens no account.
import { randomBytes } from 'node:crypto'
import { and, desc, eq, gt, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { accountTokens } from '../../db/schema/index.ts'
import { hashToken } from '../shared/tokens.ts'

export type TokenKind = 'activate' | 'reset' | 'mail_change' | 'login_unlock'

const HOUR = 3_600_000
/**
 * Lifetimes (not in the spec): an activation mail may sit unread for days; a
 * reset link is a password in the clear, so it lives an hour; a mail change
 * waits a day for the member to open the new mailbox; a login unlock is
 * wanted now, and a lock it lifts lasts an hour at most anyway.
 */
export const TOKEN_TTL_MS: Record<TokenKind, number> = {
  activate: 7 * 24 * HOUR,
  reset: 1 * HOUR,
  mail_change: 24 * HOUR,
  login_unlock: 1 * HOUR,
}

/** A new token for the member; returns the clear text for the link. */
/** A token of this kind that is unused and unexpired at `now`. */
const isOpen = (token: string, kind: TokenKind, now: Date) =>
  and(
    eq(accountTokens.tokenHash, hashToken(token)),
    eq(accountTokens.kind, kind),
    isNull(accountTokens.usedAt),
    gt(accountTokens.expiresAt, now),
  )

export async function createToken(
  db: Db,
  memberId: number,
  kind: TokenKind,
  newEmail?: string,
  now = new Date(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  await db.insert(accountTokens).values({
    tokenHash: hashToken(token),
    memberId,
    kind,
    newEmail: newEmail ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + TOKEN_TTL_MS[kind]),
  })
  return token
}

export type TokenRow = typeof accountTokens.$inferSelect

/**
 * Uses a token: one conditional UPDATE (unused, unexpired, of this kind), so
 * two clicks racing on the same link cannot both succeed. Null for an
 * unknown, used or expired token.
 */
export async function consumeToken(
  db: Db,
  token: string,
  kind: TokenKind,
  now = new Date(),
): Promise<TokenRow | null> {
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(isOpen(token, kind, now))
    .returning()
  return row ?? null
}

/** Whether a token is open (unused, unexpired) without using it: a cheap check before costly work. */
export async function isOpenToken(db: Db, token: string, kind: TokenKind, now = new Date()) {
  const [row] = await db
    .select({ memberId: accountTokens.memberId })
    .from(accountTokens)
    .where(isOpen(token, kind, now))
  return row !== undefined
}

/** Voids the member's open tokens of a kind (a finished reset voids older reset links). */
export async function voidTokens(db: Db, memberId: number, kind: TokenKind, now = new Date()) {
  await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.memberId, memberId),
        eq(accountTokens.kind, kind),
        isNull(accountTokens.usedAt),
      ),
    )
}

/** The newest open mail-change token of a member: its address is "pending". */
export async function pendingEmail(db: Db, memberId: number, now = new Date()) {
  const [row] = await db
    .select({ newEmail: accountTokens.newEmail })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.memberId, memberId),
        eq(accountTokens.kind, 'mail_change'),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .orderBy(desc(accountTokens.createdAt))
    .limit(1)
  return row?.newEmail ?? null
}
