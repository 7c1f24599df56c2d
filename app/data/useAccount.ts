// The member's own account (profile fields, notes, last step, pending mail),
// as the worker stored it: /profile renders from it at once and offline, and
// the page load refreshes it.
import { useEffect, useState } from 'react'
import type { AccountState } from '../../api/contract/index.ts'
import { type SyncError, syncWorker } from '../../sync/client.ts'
import { useKv } from './stored.ts'

export function useAccount(): { account: AccountState | undefined; error: SyncError | null } {
  const [error, setError] = useState<SyncError | null>(null)
  useEffect(() => {
    void syncWorker()
      .account()
      .then((res) => setError(res.ok ? null : res.error))
  }, [])
  const account = useKv('account')
  return { account, error }
}
