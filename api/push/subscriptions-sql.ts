// The push subscriptions other domains end: a sanction stops a member's
// pushes with their sessions.
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { pushSubscriptions } from '../../db/schema/index.ts'

/** Removes every push subscription of the member, in the caller's transaction. */
export async function dropSubscriptions(tx: Db, memberId: number): Promise<void> {
  await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.memberId, memberId))
}
