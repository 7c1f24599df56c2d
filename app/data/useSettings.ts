import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect } from 'react'
import { syncWorker } from '../../sync/client.ts'
import { localDb } from '../../sync/store/store.ts'

let refreshed = false

/**
 * The site settings (spec §3) as stored by the worker, `undefined` until
 * known. Read them with the helpers of sync/members/view.ts. Refreshed once
 * per page load; the worker fetches them again when a member logs in (logout
 * wipes them). Not refetched whenever the store is empty: a page still
 * mounted during logout would write them back right after the wipe.
 * Offline the stored copy serves.
 */
export function useSettings(): unknown {
  const row = useLiveQuery(() => localDb().kv.get('settings'), [])
  useEffect(() => {
    if (refreshed) return
    refreshed = true
    void syncWorker().syncSettings()
  }, [])
  return row?.value
}
