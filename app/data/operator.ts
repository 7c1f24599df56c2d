// The operator's console talks to the API directly, online only: a staff
// device keeps no offline copy of other members' data (no IndexedDB, no
// service-worker cache; /api answers no-store). Only the console's pages
// import this module, so members never download it.
import { useCallback, useEffect, useState } from 'react'

export type { StaffMe } from '../../api/contract/operator/staff.ts'

export type CallResult<T> =
  | { ok: true; data: T }
  | {
      ok: false
      status: number
      /** The API's error code (`forbidden`, `invalid_input`, ...), or `offline`. */
      error: string
      field?: string
      message?: string
    }

/** One console call; the body as JSON; never throws. */
export async function consoleCall<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<CallResult<T>> {
  let res: Response
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      cache: 'no-store',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    return { ok: false, status: 0, error: 'offline' }
  }
  const json = res.headers.get('content-type')?.includes('json')
    ? await res.json().catch(() => null)
    : null
  if (res.ok) return { ok: true, data: json as T }
  return {
    ok: false,
    status: res.status,
    error: json?.error ?? 'error',
    ...(json?.field ? { field: json.field } : {}),
    ...(json?.message ? { message: json.message } : {}),
  }
}

/** `/api/operator/x.php?a=1` from a path and the defined values of a query. */
export function withQuery(path: string, query: Record<string, string | number | undefined>) {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== '') params.set(k, String(v))
  const s = params.toString()
  return s ? `${path}?${s}` : path
}

/**
 * A console read: loads on mount and whenever `path` changes; `reload()`
 * after an action. `data` keeps the last answer while a reload runs.
 */
export function useConsoleQuery<T>(path: string | null) {
  const [state, setState] = useState<{ data?: T; error?: CallResult<T>; loading: boolean }>({
    loading: path !== null,
  })
  const [round, setRound] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new round is a reload of the same path
  useEffect(() => {
    if (path === null) return
    let live = true
    setState((s) => ({ ...s, loading: true }))
    void consoleCall<T>('GET', path).then((r) => {
      if (!live) return
      setState(r.ok ? { data: r.data, loading: false } : { error: r, loading: false })
    })
    return () => {
      live = false
    }
  }, [path, round])
  const reload = useCallback(() => setRound((n) => n + 1), [])
  return { ...state, reload }
}
