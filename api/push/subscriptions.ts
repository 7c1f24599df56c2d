// Web Push subscriptions of members (POST /api/user.php?push=1, spec §7).
import { and, eq, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { pushSubscriptions } from '../../db/schema/index.ts'

export interface SubscriptionInput {
  endpoint: string
  keys: { p256dh: string; auth: string }
}

/**
 * Stores a subscription; false when the endpoint belongs to another member
 * and this request cannot prove it comes from that browser.
 *
 * One endpoint is one browser and belongs to one member. The member who owns
 * it may post it again (new keys after a pushsubscriptionchange). Another
 * member takes it over only with the same keys: the `auth` secret is made by
 * the browser and never leaves it except to us, so equal keys mean the same
 * browser subscribing again after another member signed in on it. The old
 * owner's row is then replaced (that browser now notifies the new member).
 * Someone who merely learned the endpoint URL cannot move it to their account.
 */
export async function saveSubscription(
  db: Db,
  memberId: number,
  { endpoint, keys }: SubscriptionInput,
  sessionHash?: string,
): Promise<boolean> {
  const excluded = (column: string) => sql.raw(`excluded.${column}`)
  const saved = await db
    .insert(pushSubscriptions)
    .values({ memberId, endpoint, p256dh: keys.p256dh, auth: keys.auth, sessionHash })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      // The session posting it now owns it: the app posts it on every load
      // (spec §4), so the row follows the device's current session.
      set: { memberId, p256dh: keys.p256dh, auth: keys.auth, sessionHash: sessionHash ?? null },
      setWhere: or(
        eq(pushSubscriptions.memberId, memberId),
        and(
          eq(pushSubscriptions.p256dh, excluded('p256dh')),
          eq(pushSubscriptions.auth, excluded('auth')),
        ),
      ),
    })
    .returning({ id: pushSubscriptions.id })
  return saved.length > 0
}
