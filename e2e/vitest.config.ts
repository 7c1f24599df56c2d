import { availableParallelism, loadavg } from 'node:os'
import { defineConfig } from 'vitest/config'

// Time-outs grow with the machine's load at the start (see ../vitest.config.ts).
const scale =
  Number(process.env.TEST_TIME_SCALE) ||
  Math.max(1, Math.ceil((loadavg()[0] ?? 0) / availableParallelism()))

// Browser tests: a real Chromium (Debian's /usr/bin/chromium) driven by
// playwright-core against the real server on a fresh embedded database.
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.ts'],
    testTimeout: 180_000 * scale,
    hookTimeout: 300_000 * scale,
    // One server + browser at a time: the machine has 2 cores.
    fileParallelism: false,
  },
})
