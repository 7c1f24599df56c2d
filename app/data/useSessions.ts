// The member's signed-in devices on /profile: asked of the worker when the
// page shows them (a list of this moment, not stored, so online only), and
// the answer of ending one or all others replaces the list.
import { useCallback, useEffect, useState } from 'react'
import type { SessionEntry } from '../../api/contract/index.ts'
import { type Result, type SyncError, syncWorker } from '../../sync/client.ts'

export interface SessionsView {
  sessions: SessionEntry[] | undefined
  error: SyncError | null
  busy: boolean
  end(id: number): Promise<void>
  endOthers(): Promise<void>
}

export function useSessions(): SessionsView {
  const [sessions, setSessions] = useState<SessionEntry[] | undefined>()
  const [error, setError] = useState<SyncError | null>(null)
  const [busy, setBusy] = useState(false)

  const adopt = useCallback((res: Result<{ sessions: SessionEntry[] }>) => {
    if (res.ok) setSessions(res.value.sessions)
    setError(res.ok ? null : res.error)
  }, [])

  useEffect(() => {
    void syncWorker().sessions().then(adopt)
  }, [adopt])

  const run = async (action: () => Promise<Result<{ sessions: SessionEntry[] }>>) => {
    setBusy(true)
    adopt(await action())
    setBusy(false)
  }
  return {
    sessions,
    error,
    busy,
    end: (id) => run(() => syncWorker().endSession(id)),
    endOthers: () => run(() => syncWorker().endOtherSessions()),
  }
}
