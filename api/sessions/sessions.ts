// The member's signed-in devices: the list on /profile, ending one, and
// "log out everywhere else". A session ended here is gone from the table, so
// that device's next call is a 403 and its app ends the session (spec §8).
import { and, asc, desc, eq, gt, ne, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { sessions } from '../../db/schema/index.ts'
import type { SessionEntry } from '../contract/index.ts'
import { SESSION_IDLE_S } from '../http/session.ts'

const BROWSERS: [RegExp, string][] = [
  [/\bEdgA?\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
]
const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
]

/** Browser and system named by a User-Agent, each null when it names none we know. */
export function deviceOf(userAgent: string): { browser: string | null; os: string | null } {
  const pick = (list: [RegExp, string][]) => list.find(([re]) => re.test(userAgent))?.[1] ?? null
  return { browser: pick(BROWSERS), os: pick(SYSTEMS) }
}

/** The member's live sessions: the current one first, then by last use. */
export async function listSessions(
  db: Db,
  memberId: number,
  currentId: number,
  now: Date,
): Promise<SessionEntry[]> {
  const rows = await db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.memberId, memberId),
        gt(sessions.expiresAt, now),
        gt(sessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_S * 1000)),
      ),
    )
    .orderBy(sql`${sessions.id} = ${currentId} DESC`, desc(sessions.lastSeenAt), desc(sessions.id))
  return rows.map((r) => ({
    id: r.id,
    ...deviceOf(r.userAgent),
    created_at: r.createdAt.toISOString(),
    last_seen_at: r.lastSeenAt.toISOString(),
    current: r.id === currentId,
  }))
}

/** The member's stored sessions for their data export, expired ones too, oldest first. */
export async function sessionsExport(db: Db, memberId: number) {
  const rows = await db
    .select()
    .from(sessions)
    .where(eq(sessions.memberId, memberId))
    .orderBy(asc(sessions.id))
  return rows.map((s) => ({
    ...deviceOf(s.userAgent),
    user_agent: s.userAgent,
    created_at: s.createdAt.toISOString(),
    last_seen_at: s.lastSeenAt.toISOString(),
    expires_at: s.expiresAt.toISOString(),
  }))
}

/** Ends one of the member's sessions; false when the member has none with that id (404). */
export async function endSessionById(db: Db, memberId: number, id: number): Promise<boolean> {
  const gone = await db
    .delete(sessions)
    .where(and(eq(sessions.memberId, memberId), eq(sessions.id, id)))
    .returning({ id: sessions.id })
  return gone.length > 0
}

/**
 * Ends every session of the member (a password reset, a deletion, a
 * sanction): each device's next call is a 403. Takes the caller's transaction.
 */
export async function endAllSessions(db: Db, memberId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.memberId, memberId))
}

/**
 * SQL true when the session whose token hash is `tokenHash` is still live
 * (not ended, not expired), for a caller's single statement.
 */
export const liveSessionSql = (tokenHash: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM sessions ls WHERE ls.token_hash = ${tokenHash} AND ls.expires_at > now())`

/** "Log out everywhere else": every session of the member but `keepId`. */
export async function endOtherSessions(db: Db, memberId: number, keepId: number): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.memberId, memberId), ne(sessions.id, keepId)))
}
