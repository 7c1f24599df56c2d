// What the first screen of a member's usual start pages shows, read from the
// store as the page starts (sync/store/peek.ts), beside the shell's own start:
// the page's first render then has it at once (useStored takes a settled
// first read as its first value) instead of asking after it mounted
// (docs/performance.md, "Repeat visit offline"). The arguments are the ones
// the pages pass: another page, or other arguments, reads on mount instead.
import { firstReads, searchKey } from '../../sync/client.ts'

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
