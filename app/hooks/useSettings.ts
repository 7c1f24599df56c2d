import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect } from 'react'
import { syncWorker } from '../../sync/client.ts'
import { localDb } from '../../sync/store.ts'

let refreshed = false

/**
 * The site settings (spec §3) as stored by the worker, `undefined` until
 * known. Read them with the helpers of sync/members-view.ts. Refreshed once
 * per page load, and whenever the store has none (logout wipes them);
 * offline the stored copy serves.
 */
export function useSettings(): unknown {
  // null = looked, none stored; undefined = still looking.
  const row = useLiveQuery(async () => (await localDb().kv.get('settings')) ?? null, [])
  useEffect(() => {
    if (row === undefined || (row !== null && refreshed)) return
    refreshed = true
    void syncWorker().syncSettings()
  }, [row])
  return row?.value
}
