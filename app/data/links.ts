// Addresses of the API that a page opens itself (a download link): the path
// is the endpoint table's, which only the worker loads (it is zod), so the
// worker builds the address (sync/links/handlers.ts) and nothing in app/
// writes an API path. Addresses are kept for the page's life, so a link
// asked for again has its address at once.
import { useEffect, useState } from 'react'
import { endpointUrl, type LinkEndpointName, type QueryOf } from '../../sync/client.ts'

export type { LinkEndpointName }

const known = new Map<string, string>()
const keyOf = (name: string, query: unknown) => JSON.stringify([name, query ?? {}])

/** The address of GET endpoint `name` with `query` (`/api/x.php?a=1`), from the endpoint table. */
export async function linkTo<K extends LinkEndpointName>(
  name: K,
  query?: QueryOf<K>,
): Promise<string> {
  const key = keyOf(name, query)
  const kept = known.get(key)
  if (kept !== undefined) return kept
  const url = await endpointUrl(name, query)
  known.set(key, url)
  return url
}

/** linkTo() for a rendered link: `undefined` until the worker answered (at once on a later render). */
export function useLinkTo<K extends LinkEndpointName>(
  name: K,
  query?: QueryOf<K>,
): string | undefined {
  const key = keyOf(name, query)
  const [url, setUrl] = useState<{ key: string; url: string }>()
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for name and query
  useEffect(() => {
    if (known.has(key)) return
    let live = true
    void linkTo(name, query).then((u) => {
      if (live) setUrl({ key, url: u })
    })
    return () => {
      live = false
    }
  }, [key])
  return known.get(key) ?? (url?.key === key ? url.url : undefined)
}
