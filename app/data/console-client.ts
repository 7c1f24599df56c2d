// The operator's console's API client: every call by the name of its entry in
// the endpoint table (api/contract/operator/), never by a path.
//
// Decision: the page loads no zod, the console's chunk included
// (layers.test.ts), and the endpoint table is zod, so the page cannot read an
// entry or its response schema itself; a path map kept here would drift from
// the table. So the call is made by the sync worker, which has the table and
// zod already (sync/console/handlers.ts): it takes method, path and fixed
// query from the entry, sends the body as JSON (or as a form where the entry
// says so), parses the answer with the entry's response schema and hands the
// parsed answer back. The worker stores none of it: a staff device still
// keeps no copy of other members' data (no IndexedDB, no service-worker
// cache; the API answers no-store), online only as before. The worker is up
// on every page of the app (the stored session), so the console starts
// nothing new. Only the console's pages import this module, so members never
// download it (tools/console-chunks.ts).
import { useCallback, useEffect, useState } from 'react'
import {
  type ConsoleCallOptions,
  type ConsoleEndpointName,
  consoleRequest,
  type QueryOf,
  type ResponseOf,
} from '../../sync/client.ts'
import { type LinkEndpointName, linkTo, useLinkTo } from './links.ts'

export type { StaffMe } from '../../api/contract/operator/staff.ts'
export type { ConsoleEndpointName }

export type CallResult<T> =
  | { ok: true; data: T }
  | {
      ok: false
      /** The HTTP status; 0 when the API could not be reached. */
      status: number
      /**
       * The API's error code (`forbidden`, `invalid_input`, ...), `offline`,
       * or `bad_response` for an answer its schema refused.
       */
      error: string
      field?: string
      message?: string
    }

/** One console call by its endpoint's name; the answer parsed with the entry's schema; never throws. */
export async function call<K extends ConsoleEndpointName>(
  name: K,
  options: ConsoleCallOptions<K> = {},
): Promise<CallResult<ResponseOf<K>>> {
  let res: Awaited<ReturnType<typeof consoleRequest<K>>>
  try {
    res = await consoleRequest(name, options)
  } catch (e) {
    // The worker could not be asked (it failed to start): as good as offline.
    return { ok: false, status: 0, error: 'offline', message: String(e) }
  }
  if (res.ok) return { ok: true, data: res.value }
  const { code, status, field, message } = res.error
  return {
    ok: false,
    status: status ?? 0,
    error: code,
    ...(field ? { field } : {}),
    ...(message ? { message } : {}),
  }
}

/**
 * A console read: loads on mount and whenever its query changes; `null`
 * instead of a query holds the call (nothing to ask yet). `reload()` after an
 * action; `data` keeps the last answer while a reload runs.
 */
export function useConsoleQuery<K extends ConsoleEndpointName>(
  name: K,
  query: QueryOf<K> | Record<string, never> | null = {},
) {
  const [state, setState] = useState<{
    data?: ResponseOf<K>
    error?: CallResult<ResponseOf<K>>
    loading: boolean
  }>({ loading: query !== null })
  const [round, setRound] = useState(0)
  const key = query === null ? null : JSON.stringify(query)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the query; a new round is a reload
  useEffect(() => {
    if (key === null) return
    let live = true
    setState((s) => ({ ...s, loading: true }))
    void call(name, { query: JSON.parse(key) }).then((r) => {
      if (!live) return
      setState(r.ok ? { data: r.data, loading: false } : { error: r, loading: false })
    })
    return () => {
      live = false
    }
  }, [name, key, round])
  const reload = useCallback(() => setRound((n) => n + 1), [])
  return { ...state, reload }
}

/** The address of a console download (a CSV report, a member's data), from the table. */
export const consoleLink = <K extends ConsoleEndpointName & LinkEndpointName>(
  name: K,
  query?: QueryOf<K>,
) => linkTo(name, query)

/** consoleLink() for a rendered link: `undefined` until the worker answered. */
export const useConsoleLink = <K extends ConsoleEndpointName & LinkEndpointName>(
  name: K,
  query?: QueryOf<K>,
) => useLinkTo(name, query)
