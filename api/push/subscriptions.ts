// Web Push subscriptions of members (POST /api/user.php?push=1, spec §7).
import type { Db } from '../../db/client.ts'
import { pushSubscriptions } from '../../db/schema.ts'

export interface SubscriptionInput {
  endpoint: string
  keys: { p256dh: string; auth: string }
}

/** Stores a subscription; one endpoint is one browser, so a new sign-in on it takes it over. */
export async function saveSubscription(
  db: Db,
  memberId: number,
  { endpoint, keys }: SubscriptionInput,
): Promise<void> {
  await db
    .insert(pushSubscriptions)
    .values({ memberId, endpoint, p256dh: keys.p256dh, auth: keys.auth })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { memberId, p256dh: keys.p256dh, auth: keys.auth },
    })
}
