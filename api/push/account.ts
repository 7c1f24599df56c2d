// The member's push subscriptions in their data export (api/accounts/export.ts).
import { asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { pushSubscriptions } from '../../db/schema/index.ts'

/**
 * The push section of the member's data export: which push service holds
 * each subscription (the endpoint's origin); its keys are secrets of the
 * member's device and stay out.
 */
export async function pushSubscriptionsExport(db: Db, memberId: number) {
  const subs = await db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.memberId, memberId))
    .orderBy(asc(pushSubscriptions.id))
  return subs.map((s) => ({
    push_service: safeOrigin(s.endpoint),
    created_at: s.createdAt.toISOString(),
  }))
}

function safeOrigin(endpoint: string): string | null {
  try {
    return new URL(endpoint).origin
  } catch {
    return null
  }
}
