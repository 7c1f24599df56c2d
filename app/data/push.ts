// The server's push key (spec §9 settings.push_pub) as the worker stored it,
// for the page code that subscribes the browser (app/features/push/).
import { readKv, syncWorker } from '../../sync/client.ts'

/**
 * settings.push_pub, fetched first if the store has no settings yet; '' =
 * push not offered. `forMember`: a member's errand, fetched only while the
 * member is still signed in (a logout may have wiped the store meanwhile).
 */
export async function pushPublicKey(forMember = false): Promise<string> {
  const stored = await readKv('settings')
  if (stored) return stored.push_pub
  await syncWorker().syncSettings(forMember)
  return (await readKv('settings'))?.push_pub ?? ''
}
