// When a prerendered page may start its background work (app/lander.tsx):
// the sync worker and the service worker's install. Its HTML came with its
// data, so neither is needed for the first paint or for hydration, and both
// compete with hydration for a phone's cores: the service worker's install
// fetches and stores the whole app (about 120 files), the sync worker
// compiles its script and opens IndexedDB. Measured on the guest home
// (bench/lighthouse.ts, docs/performance.md): TBT 487 -> 122 ms at 4x.

/** Calm after `load` before the background work starts (without input). */
export const SETTLE_AFTER_LOAD_MS = 3000
/** The longest wait for an idle moment after that calm. */
export const SETTLE_IDLE_TIMEOUT_MS = 2000
/**
 * The visitor's first input ends the wait at once: what they do next (a
 * sign-up, a login) needs the worker. Focus alone is not input (a page may
 * focus a field itself); scrolling needs neither worker.
 */
export const INPUT_EVENTS = ['pointerdown', 'keydown', 'touchstart'] as const

/**
 * The attribute of an element whose place, once in view, needs the worker at
 * once (the home page's member photos come from it): on a wide screen it is
 * in the first view, on a phone below it.
 */
export const WORKER_WHEN_SEEN = 'data-worker-when-seen'
/**
 * How close to the view such an element counts as seen: in it. On a phone
 * (Lighthouse's 412 × 823) the home's photos start 188 px below the first
 * view; a margin would start the worker beside the hydration there too.
 */
export const SEEN_MARGIN_PX = 0

export interface SettleDeps {
  /** Where input and `load` arrive (the window). */
  target: EventTarget
  loaded: () => boolean
  /** requestIdleCallback where the browser has it. */
  whenIdle: (fn: () => void, timeoutMs: number) => void
  /** Calls `onSeen` once an element marked WORKER_WHEN_SEEN is in view, if there is one. */
  watchSeen: (onSeen: () => void) => void
}

const browserDeps = (): SettleDeps => ({
  target: window,
  loaded: () => document.readyState === 'complete',
  whenIdle: (fn, timeout) =>
    'requestIdleCallback' in window
      ? window.requestIdleCallback(() => fn(), { timeout })
      : globalThis.setTimeout(fn, 0),
  watchSeen: (onSeen) => {
    const marked = document.querySelectorAll(`[${WORKER_WHEN_SEEN}]`)
    if (marked.length === 0 || !('IntersectionObserver' in window)) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return
        observer.disconnect()
        onSeen()
      },
      { rootMargin: `${SEEN_MARGIN_PX}px` },
    )
    for (const element of marked) observer.observe(element)
  },
})

/**
 * Resolves at the visitor's first input, when a WORKER_WHEN_SEEN element is
 * in view, or after `load`, some calm and an idle moment.
 */
export function pageSettled(deps: SettleDeps = browserDeps()): Promise<void> {
  return new Promise((resolve) => {
    let done = false
    const settle = () => {
      if (done) return
      done = true
      for (const type of INPUT_EVENTS) deps.target.removeEventListener(type, settle, true)
      resolve()
    }
    for (const type of INPUT_EVENTS)
      deps.target.addEventListener(type, settle, { capture: true, passive: true })
    deps.watchSeen(settle)
    const afterLoad = () =>
      setTimeout(() => deps.whenIdle(settle, SETTLE_IDLE_TIMEOUT_MS), SETTLE_AFTER_LOAD_MS)
    if (deps.loaded()) afterLoad()
    else deps.target.addEventListener('load', afterLoad, { once: true })
  })
}
