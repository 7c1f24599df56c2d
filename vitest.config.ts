import { defineConfig } from 'vitest/config'
import { TIME_SCALE as scale } from './api/test/time-scale.ts'

// Time-outs guard against a hang and grow with the machine's load
// (api/test/time-scale.ts).

// Unit and API suites, run in Node. Browser tests (e2e/) have their own config
// (e2e/vitest.config.ts). This file stands alone on purpose: vite.config.ts
// roots the build in app/ and loads the PWA plugins, which tests do not need.
export default defineConfig({
  test: {
    include: [
      '{api,sync,db,sw,app,integration,messages,tools}/**/*.test.{ts,tsx}',
      'layers.test.ts',
    ],
    exclude: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-ssr/**',
      '**/.data/**',
      '**/.tmp-root/**',
      'e2e/**',
    ],
    environment: 'node',
    // An in-memory PGlite takes 2-3 s to start and migrate, a PostgreSQL
    // database a little less; a demo seed a few seconds more on a slow runner.
    testTimeout: 60_000 * scale,
    hookTimeout: 180_000 * scale,
    teardownTimeout: 60_000 * scale,
    // Two cores: each API suite starts a PGlite (WebAssembly, CPU-bound), so
    // more workers only make them fight for the same cores.
    maxWorkers: 2,
    // Stubs made with vi.stubGlobal (fetch, location) never leak between tests.
    unstubGlobals: true,
  },
})
