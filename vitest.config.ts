import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { defineConfig } from 'vitest/config'
import { TIME_SCALE as scale } from './api/test/time-scale.ts'

// Time-outs guard against a hang and grow with the machine's load
// (api/test/time-scale.ts).

// Unit and API suites, run in Node. Browser tests (e2e/) have their own config
// (e2e/vitest.config.ts). This file stands alone on purpose: vite.config.ts
// roots the build in app/ and loads the PWA plugins, which tests do not need.

const ROOTS = ['api', 'sync', 'db', 'sw', 'app', 'integration', 'messages', 'tools']
const INCLUDE = [`{${ROOTS.join(',')}}/**/*.test.{ts,tsx}`, 'layers.test.ts']
const EXCLUDE = [
  '**/node_modules/**',
  '**/dist/**',
  '**/dist-ssr/**',
  '**/.data/**',
  '**/.tmp-root/**',
  'e2e/**',
]

/** Test files under `dir`, recursively. */
const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory())
      return e.name === 'node_modules' || e.name === 'dist' ? [] : testFiles(path)
    return /\.test\.tsx?$/.test(e.name) ? [path] : []
  })

/**
 * Files that replace a module (vi.mock, vi.doMock, vi.resetModules): each
 * runs with its own module graph, since in a shared one the mock would leak
 * into the files after it, or find the real module already loaded.
 */
const MOCKING = ROOTS.flatMap(testFiles).filter((f) =>
  /\bvi\.(mock|doMock|resetModules)\(/.test(readFileSync(f, 'utf8')),
)

const common = {
  environment: 'node' as const,
  // An in-memory PGlite takes 2-3 s to start and migrate, a PostgreSQL
  // database a little less; a demo seed a few seconds more on a slow runner.
  testTimeout: 60_000 * scale,
  hookTimeout: 180_000 * scale,
  teardownTimeout: 60_000 * scale,
  // Stubs made with vi.stubGlobal (fetch, location) never leak between tests.
  unstubGlobals: true,
  // What one file changed of the process (timers, spies, env) is undone
  // when the file ends (tools/test-setup.ts), for the file after it.
  setupFiles: ['./tools/test-setup.ts'],
}

export default defineConfig({
  test: {
    // Two cores: each API suite starts a PGlite (WebAssembly, CPU-bound), so
    // more workers only make them fight for the same cores.
    maxWorkers: 2,
    projects: [
      {
        // The files of one worker share its modules (isolate: false): each
        // file's imports (the API, drizzle, zod's schemas, PGlite) are
        // evaluated once per worker, not once per file. Measured on this
        // 2-core machine (docs/testing.md): the phase 493 s -> 283 s, of
        // which evaluating imports 265 s -> 33 s.
        test: {
          ...common,
          name: 'shared',
          include: INCLUDE,
          exclude: [...EXCLUDE, ...MOCKING],
          isolate: false,
        },
      },
      {
        test: { ...common, name: 'isolated', include: MOCKING, exclude: EXCLUDE, isolate: true },
      },
    ],
  },
})
