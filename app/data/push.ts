// The server's push key (spec §9 settings.push_pub) as the worker stored it,
// for the page code that subscribes the browser (app/features/push/).
import { readKv, syncWorker } from '../../sync/client.ts'

/** settings.push_pub, fetched first if the store has no settings yet; '' = push not offered. */
export async function pushPublicKey(): Promise<string> {
  const stored = await readKv('settings')
  if (stored) return stored.push_pub
  await syncWorker().syncSettings()
  return (await readKv('settings'))?.push_pub ?? ''
}
