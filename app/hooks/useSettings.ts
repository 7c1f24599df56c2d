import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect } from 'react'
import { syncWorker } from '../../sync/client.ts'
import { localDb } from '../../sync/store.ts'

let requested = false

/**
 * The site settings (spec §3) as stored by the worker, `undefined` until
 * known. Read them with the helpers of sync/members-view.ts. Refreshed once
 * per page load; offline the stored copy serves.
 */
export function useSettings(): unknown {
  useEffect(() => {
    if (requested) return
    requested = true
    void syncWorker().syncSettings()
  }, [])
  return useLiveQuery(async () => (await localDb().kv.get('settings'))?.value, [])
}
