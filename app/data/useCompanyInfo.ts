import { useEffect } from 'react'
import type { CompanyInfo } from '../../api/contract/index.ts'
import { syncWorker } from '../../sync/client.ts'
import { useKv } from './stored.ts'

let requested = false
/** The last imprint seen on this page load: it outlives the store's wipe on logout. */
let lastKnown: CompanyInfo | undefined

/**
 * The company imprint (spec §3 company info) as the worker stored it,
 * `undefined` until known. Fetched once per page load, like the settings.
 * Logout wipes the store and nothing writes it back (a logged-out store is
 * empty); the footer keeps showing what it had until the next page load.
 */
export function useCompanyInfo(): CompanyInfo | undefined {
  const value = useKv('companyInfo')
  useEffect(() => {
    if (requested) return
    requested = true
    void syncWorker().syncCompanyInfo()
  }, [])
  if (value) lastKnown = value
  return value ?? lastKnown
}
