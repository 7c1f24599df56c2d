// Spec §8: a code chunk that fails to load (a deploy replaced it, the network
// dropped) reloads the page, at most once per path per 10 s, so a chunk that
// is gone for good shows the error page instead of reloading for ever.

export const CHUNK_RELOAD_WINDOW_MS = 10_000
const KEY = 'amora-chunk-reloads'

export interface ReloadDeps {
  storage: Pick<Storage, 'getItem' | 'setItem'>
  now: () => number
  reload: () => void
}

/** The errors browsers and Vite give for a dynamic import that failed. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error)
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|ChunkLoadError|Unable to preload CSS/i.test(
    message,
  )
}

/** Reloads unless this path was reloaded for a chunk within the window; says whether it did. */
export function reloadForChunk(path: string, deps: ReloadDeps): boolean {
  const now = deps.now()
  let last: Record<string, number> = {}
  try {
    last = JSON.parse(deps.storage.getItem(KEY) ?? '{}') as Record<string, number>
  } catch {
    // A damaged entry counts as none.
  }
  const at = last[path]
  if (at !== undefined && now - at < CHUNK_RELOAD_WINDOW_MS) return false
  const kept = Object.fromEntries(
    Object.entries(last).filter(([, t]) => now - t < CHUNK_RELOAD_WINDOW_MS),
  )
  deps.storage.setItem(KEY, JSON.stringify({ ...kept, [path]: now }))
  deps.reload()
  return true
}

/** The browser's own deps: per tab (sessionStorage survives the reload). */
export const browserReloadDeps = (): ReloadDeps => ({
  storage: sessionStorage,
  now: () => Date.now(),
  reload: () => window.location.reload(),
})

/** Vite's event for a preload that failed: reload instead of a broken page. */
export function installChunkReload(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadForChunk(window.location.pathname, browserReloadDeps())) event.preventDefault()
  })
}
