import { useEffect, useState } from 'react'
import type { LanderMembersResponse } from '../../api/contract/index.ts'
import { syncWorker } from '../../sync/client.ts'

export type LanderMembers =
  | { state: 'loading' }
  | { state: 'ready'; value: LanderMembersResponse }
  | { state: 'failed' }

/**
 * The members a lander shows (GET /api/lander_members.php through the
 * worker), asked for once per visit: a lander is a guest's first page and
 * its members are not kept. With `member`, that member and similar ones.
 */
export function useLanderMembers(member?: number): LanderMembers {
  const [result, setResult] = useState<LanderMembers>({ state: 'loading' })
  useEffect(() => {
    let live = true
    void syncWorker()
      .landerMembers(member)
      .then((res) => {
        if (live) setResult(res.ok ? { state: 'ready', value: res.value } : { state: 'failed' })
      })
    return () => {
      live = false
    }
  }, [member])
  return result
}
