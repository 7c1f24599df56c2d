import { useEffect } from 'react'
import type { Settings } from '../../api/contract/index.ts'
import { syncWorker } from '../../sync/client.ts'
import { useKv } from './stored.ts'

let refreshed = false

/**
 * The site settings (spec §3) as stored by the worker (the one copy),
 * `undefined` until known. Refreshed once per page load; the worker fetches
 * them again when a member logs in (logout wipes them). Not refetched
 * whenever the store is empty: a page still mounted during logout would
 * write them back right after the wipe. Offline the stored copy serves.
 */
export function useSettings(): Settings | undefined {
  const value = useKv('settings')
  useEffect(() => {
    if (refreshed) return
    refreshed = true
    void syncWorker().syncSettings()
  }, [])
  return value
}
