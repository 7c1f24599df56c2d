import { defineConfig } from 'vitest/config'
import { TIME_SCALE as scale } from '../api/test/time-scale.ts'

// Time-outs grow with the machine's load (api/test/time-scale.ts).

// Browser tests: a real Chromium (Debian's /usr/bin/chromium) driven by
// playwright-core against the real server on a fresh embedded database.
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.ts'],
    // The migrated PGlite directory every site copies (e2e/pglite-template.ts).
    globalSetup: ['./global-setup.ts'],
    testTimeout: 180_000 * scale,
    hookTimeout: 300_000 * scale,
    // Two files at a time: each starts its own server on its own port and
    // data directory (or its own PostgreSQL database), so they share nothing,
    // and most of a browser test is waiting (for the network, a push, a
    // minute to pass), which a second file fills. Every wait in them grows
    // with the load (api/test/time-scale.ts), so the busier machine is safe.
    fileParallelism: true,
    maxWorkers: 2,
  },
})
