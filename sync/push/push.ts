// Whether this device has a push subscription (spec §4 push states), stored
// so that the slower polling it allows (spec §9: 300 s instead of 60 s)
// survives a reload.
import type { SyncContext } from '../core/context.ts'
import { kvGet, kvPut } from '../store/kv.ts'

export async function pushSubscribed(ctx: SyncContext): Promise<boolean> {
  return (await kvGet(ctx.db, 'push'))?.subscribed === true
}

export async function storePushSubscribed(ctx: SyncContext, subscribed: boolean): Promise<void> {
  await kvPut(ctx.db, 'push', { subscribed })
}
