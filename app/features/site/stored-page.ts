// The page side of the stored page (sw/snapshot.ts): a copy of what a
// member's start page showed, kept so that a repeat visit offline paints it
// with the HTML, and taken away once the app's own render has the same
// content (docs/performance.md, "Repeat visit offline").
import {
  PAGE_SNAPSHOT_CACHE,
  SNAPSHOT_ELEMENT_ID,
  SNAPSHOT_HEADERS,
  SNAPSHOT_PAGES,
} from '../../../sw/snapshot.ts'
import { session } from '../../data/session.ts'
import { onSyncEvent } from '../../data/worker.ts'

type Router = { subscribe(event: 'onRendered', fn: () => void): () => void }

/** A page that stayed unchanged this long is stored: one write per burst of changes. */
export const STORE_AFTER_MS = 400

/**
 * How long the stored layer waits for the app's own rows after the app
 * rendered the page (its rows may come a few frames later, from the store);
 * past it the layer goes anyway, so a page that has no rows now (the chats
 * were deleted) never stays covered by its old copy.
 */
export const LAYER_MAX_WAIT_MS = 1000

/** Changes with a logout: a write begun before it must not leave a copy after it. */
let generation = 0

/** The path of the stored page the current address shows, or undefined. */
function storedPath(): string | undefined {
  const { pathname, search } = window.location
  return pathname in SNAPSHOT_PAGES && search === '' ? pathname : undefined
}

/**
 * The markup of the app's root as a stored page: without ids, names,
 * autofocus and autoplay, which would clash with the app's own page while
 * both are in the document (a second #app-root, a radio group joined).
 */
export function markupOf(root: Element): string {
  const copy = root.cloneNode(true) as Element
  for (const el of copy.querySelectorAll('[id], [name], [autofocus], [autoplay]')) {
    for (const attribute of ['id', 'name', 'autofocus', 'autoplay']) el.removeAttribute(attribute)
  }
  return copy.innerHTML
}

async function put(path: string, html: string, shell: string, lang: string): Promise<void> {
  const at = generation
  const cache = await caches.open(PAGE_SNAPSHOT_CACHE)
  if (at !== generation) return
  await cache.put(
    path,
    new Response(html, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        [SNAPSHOT_HEADERS.shell]: shell,
        [SNAPSHOT_HEADERS.lang]: lang,
      },
    }),
  )
  // A logout while the copy was written: it goes with the rest.
  if (at !== generation) await caches.delete(PAGE_SNAPSHOT_CACHE)
}

/**
 * Keeps a copy of a start page (SNAPSHOT_PAGES) each time it has settled
 * with its rows, for a signed-in member only, and deletes every copy when
 * the session ends (logout, deletion, expiry: the sync worker's one
 * `session_ended`; the service worker deletes them too).
 */
export function keepStoredPages(router: Router): void {
  const root = document.getElementById('root')
  // The shell's version as the service worker reads it (shellScriptsOf).
  const shell = [...document.querySelectorAll('script[type="module"][src]')]
    .map((script) => script.getAttribute('src'))
    .join(' ')
  if (!('caches' in window) || !root || shell === '') return
  let timer: ReturnType<typeof setTimeout> | undefined
  let path: string | undefined
  /** Whether this view of the page has a copy yet. */
  let kept = false
  const hasRows = () => path !== undefined && root.querySelector(SNAPSHOT_PAGES[path]!) !== null
  const store = () => {
    timer = undefined
    if (path === undefined || storedPath() !== path || !session.get().user) return
    // A page still loading, or with no rows, is not worth painting first.
    if (!hasRows()) return
    kept = true
    put(path, markupOf(root), shell, document.documentElement.lang).catch((e: unknown) =>
      console.warn('the page could not be stored', e),
    )
  }
  const schedule = () => {
    clearTimeout(timer)
    timer = setTimeout(store, STORE_AFTER_MS)
  }
  // The first copy of a view as soon as its rows are there (the member may
  // leave at once); later changes by the quiet rule.
  const changed = () => (!kept && hasRows() ? store() : schedule())
  const observer = new MutationObserver(changed)
  router.subscribe('onRendered', () => {
    observer.disconnect()
    clearTimeout(timer)
    path = storedPath()
    kept = false
    if (path === undefined) return
    observer.observe(root, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    })
    changed()
  })
  // Leaving with a write pending: write now.
  window.addEventListener('pagehide', () => {
    if (timer !== undefined) {
      clearTimeout(timer)
      store()
    }
  })
  onSyncEvent((e) => {
    if (e.type !== 'session_ended') return
    generation++
    clearTimeout(timer)
    timer = undefined
    caches.delete(PAGE_SNAPSHOT_CACHE).catch(() => undefined)
  })
}

/**
 * Takes the stored layer (painted by the service worker's shell) away once
 * the app's own render shows the page's rows, or has rendered another page,
 * or has rendered this one and LAYER_MAX_WAIT_MS passed without rows.
 */
export function takeAwayStoredPage(router: Router): void {
  const layer = document.getElementById(SNAPSHOT_ELEMENT_ID)
  const root = document.getElementById('root')
  if (!layer || !root) return
  const path = storedPath()
  const ready = path === undefined ? undefined : SNAPSHOT_PAGES[path]
  const shown = () => ready !== undefined && root.querySelector(ready) !== null
  let wait: ReturnType<typeof setTimeout> | undefined
  const done = () => {
    observer.disconnect()
    stop()
    clearTimeout(wait)
    layer.remove()
  }
  // Called in the same task as the app's change, so no frame shows both.
  const observer = new MutationObserver(() => {
    if (shown()) done()
  })
  observer.observe(root, { subtree: true, childList: true })
  const stop = router.subscribe('onRendered', () => {
    if (shown() || storedPath() !== path) done()
    else wait ??= setTimeout(done, LAYER_MAX_WAIT_MS)
  })
}
