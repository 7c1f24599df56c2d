// Run before every unit and API test file (vitest.config.ts, setupFiles).
// The files of a worker share its modules and its process (isolate: false),
// so what a file changes of them must not reach the next file: a Date.now
// spied on and never restored made a later file's jobs never due (its clock
// said 1970) and its "online now" read as "today".
import { afterAll, vi } from 'vitest'

afterAll(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
  vi.unstubAllGlobals()
})
