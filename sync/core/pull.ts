// The shape of every pull: fetch an endpoint through the fence (an answer
// that outlives a logout is dropped), hand a 403 to the session, store the
// parsed answer, tell the page.
import type { EndpointName } from '../../api/contract/index.ts'
import type { SyncContext } from './context.ts'
import type { Result } from './errors.ts'
import type { SyncEvent } from './events.ts'
import { fenced } from './fence.ts'
import { type EndpointOptions, type ResponseOf, request } from './http.ts'

type Synced = Extract<SyncEvent, { type: 'synced' }>['what']

export async function pull<K extends EndpointName, T>(
  ctx: SyncContext,
  name: K,
  options: EndpointOptions<K>,
  what: Synced,
  store: (value: ResponseOf<K>) => Promise<T>,
): Promise<Result<T>> {
  const res = await fenced(ctx.db, () => request(name, options), store)
  if (!res.ok) {
    await ctx.sessionGone(res.error)
    return res
  }
  ctx.emit({ type: 'synced', what })
  return res
}
