// The shell's first module (main.tsx imports it first, so it runs before
// React, the router and the pages are evaluated): the page's own reads of the
// store start here, and IndexedDB opens while the rest of the shell is
// evaluated (docs/performance.md, "Repeat visit offline").
import { readFirstScreen, startFirstReads } from './data/first-screen.ts'
import { firstReads } from './data/worker.ts'

startFirstReads()
// The stored member: the root renders on it (app/data/session.ts load()).
void firstReads.read('kv', ['user'])
readFirstScreen(window.location.pathname, window.location.search)
