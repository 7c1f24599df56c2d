import { defineConfig } from 'vitest/config'

// Browser tests: a real Chromium (Debian's /usr/bin/chromium) driven by
// playwright-core against the real server on a fresh embedded database.
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    // One server + browser at a time: the machine has 2 cores.
    fileParallelism: false,
  },
})
