// What the first screen of a member's usual start pages shows, read from the
// store as the page starts (sync/store/peek.ts), beside the shell's own start:
// the page's first render then has it at once (useStored takes a settled
// first read as its first value) instead of asking after it mounted
// (docs/performance.md, "Repeat visit offline"). The arguments are the ones
// the pages pass: another page, or other arguments, reads on mount instead.
import { firstReads, searchKey, installFirstReads } from '../../sync/client.ts'
import { FirstReads } from '../../sync/store/peek.ts'

/** The app shell's first reads (app/early.ts); a guest's light entry has none. */
export function startFirstReads(): void {
  installFirstReads(new FirstReads())
  firstReads.open()
}

/** The reads of `/chats` and of `/members` without filters (its default search, page 1). */
export function readFirstScreen(pathname: string, search: string): void {
  if (pathname === '/chats') void firstReads.read('chats', [])
  if (pathname === '/members' && search === '') {
    void firstReads.read('kv', ['settings'])
    void firstReads.read('searchPage', [searchKey({}), 1]).then((first) => {
      // The grid's like state (app/routes/_default/_member/members/index.tsx).
      if (first)
        void firstReads.read('likedSet', [
          [...first.value.profiles.map((p) => p.id), ...first.value.similar.map((p) => p.id)],
        ])
    })
  }
}

/** At the latest then the worker starts, whatever the page did (a safety net, not a wait). */
const WORKER_HOLD_MAX_MS = 2000

/**
 * The sync worker starts once the first screen painted from the page's own
 * reads, not beside it: its start (a large script compiled, Dexie opening
 * the store) would compete for the device's cores and the store with the
 * page's first render. Without a stored member to show (a guest, a first
 * visit, a store the page cannot read) the page needs the worker: it starts
 * at once. Call before the page's first `worker()`.
 */
export function holdWorkerUntilPainted(
  router: { subscribe(event: 'onRendered', fn: () => void): () => void },
  hold: (until: Promise<void>) => void,
): void {
  if (document.visibilityState === 'hidden') return
  hold(
    new Promise<void>((release) => {
      void firstReads.read('kv', ['user']).then((first) => {
        if (!first?.value) release()
      })
      const stop = router.subscribe('onRendered', () => {
        stop()
        // rAF runs before the next frame is painted; a task queued from it runs after.
        requestAnimationFrame(() => setTimeout(release, 0))
      })
      setTimeout(release, WORKER_HOLD_MAX_MS)
    }),
  )
}
