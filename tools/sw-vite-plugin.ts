// Vite plugin that builds the service worker (sw/sw.ts) next to the app.
//
// `vite build`: after the app bundle is written, bundle sw/sw.ts on its own
// (a second Vite build, classic IIFE script, no shared chunks with the app)
// into <outDir>/sw.js, then let workbox-build inject the precache manifest of
// everything the app build wrote. `vite` (dev): serve the same worker at
// /sw.js with an empty precache, so push, badge and runtime caching can be
// tried against the dev server.
//
// The server must send dist/sw.js with `Cache-Control: no-cache` (browsers
// cap the worker's HTTP cache at 24 hours anyway, but no-cache makes an
// update visible on the next navigation).

import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type InlineConfig, type Plugin, type ResolvedConfig } from 'vite'
import { consoleOnlyFiles } from './console-chunks.ts'

const SW_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../sw')
const SW_ENTRY = path.join(SW_DIR, 'sw.ts')
const SW_FILE = 'sw.js'
// Spec §7 push worker, imported by sw.js (importScripts): its own classic
// script, outside the precache (the browser fetches and update-checks
// imported scripts itself).
const PUSH_ENTRY = path.join(SW_DIR, 'sw-push.ts')
const PUSH_FILE = 'sw-push.js'
const WORKERS: Record<string, string> = { [SW_FILE]: SW_ENTRY, [PUSH_FILE]: PUSH_ENTRY }
// The placeholder precacheAndRoute() receives; workbox-build replaces it.
const INJECTION_POINT = 'self.__WB_MANIFEST'

// What the shell needs offline. Source maps and the Vite manifest
// (.vite/manifest.json) are not served to users.
const PRECACHE_PATTERNS = ['**/*.{js,css,html,svg,png,webp,ico,woff2,webmanifest}']
// l/: the light entry's copies per language (tools/light-vite-plugin.ts), a
// guest's first page; the installed app never shows them.
const PRECACHE_IGNORES = ['**/*.map', '.vite/**', 'l/**', PUSH_FILE]
// Vite names emitted assets `assets/<name>-<8-char hash>.<ext>`: the hash is
// the revision, so those URLs are cached as they are.
const HASHED_ASSET = /^assets\/.+-[\w-]{8}\.\w+$/
// Workbox's default (2 MB) would silently leave a large chunk out of the
// shell; fail loudly instead by allowing more and warning on every skip.
const MAX_PRECACHE_FILE_BYTES = 5 * 1024 * 1024

export function serviceWorkerPlugin(): Plugin {
  let config: ResolvedConfig
  const devWorkers = new Map<string, Promise<string>>()

  return {
    name: 'amora:service-worker',

    configResolved(resolved) {
      config = resolved
    },

    configureServer(server) {
      server.watcher.add(SW_DIR)
      server.watcher.on('change', (file) => {
        if (file.startsWith(SW_DIR + path.sep)) devWorkers.clear()
      })
      server.middlewares.use((req, res, next) => {
        const file = req.url?.split('?')[0]?.slice(1) ?? ''
        const entry = WORKERS[file]
        if (entry === undefined) return next()
        const devWorker = devWorkers.get(file) ?? bundleDevWorker(entry, file)
        devWorkers.set(file, devWorker)
        devWorker.then(
          (code) => {
            res.setHeader('Content-Type', 'text/javascript; charset=utf-8')
            res.setHeader('Cache-Control', 'no-cache')
            res.end(code)
          },
          (error: unknown) => {
            devWorkers.delete(file)
            next(error)
          },
        )
      })
    },

    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        // Only after the browser build (not SSR or other environments).
        if (config.command !== 'build' || config.build.ssr) return
        if (this.environment !== undefined && this.environment.name !== 'client') return
        await buildServiceWorker(config)
      },
    },
  }
}

async function buildServiceWorker(config: ResolvedConfig): Promise<void> {
  const outDir = path.resolve(config.root, config.build.outDir)
  // One build per script: a classic (IIFE) script has a single entry.
  for (const [file, entry] of Object.entries(WORKERS)) {
    await build(
      workerBuildConfig(config.mode, entry, file, {
        outDir,
        emptyOutDir: false,
        sourcemap: config.build.sourcemap,
        minify: config.build.minify !== false,
      }),
    )
  }

  const swPath = path.join(outDir, SW_FILE)
  // Loaded here, not at the top: workbox-build is heavy and only the
  // production build needs it.
  const { injectManifest } = await import('workbox-build')
  // The console's own chunks stay out (tools/console-chunks.ts).
  const manifestPath = path.join(outDir, '.vite/manifest.json')
  const consoleFiles = existsSync(manifestPath)
    ? consoleOnlyFiles(JSON.parse(await readFile(manifestPath, 'utf8')))
    : []
  const { count, size, warnings } = await injectManifest({
    swSrc: swPath,
    swDest: swPath,
    globDirectory: outDir,
    globPatterns: PRECACHE_PATTERNS,
    globIgnores: [...PRECACHE_IGNORES, ...consoleFiles],
    dontCacheBustURLsMatching: HASHED_ASSET,
    maximumFileSizeToCacheInBytes: MAX_PRECACHE_FILE_BYTES,
    injectionPoint: INJECTION_POINT,
  })
  for (const warning of warnings) config.logger.warn(`[sw] ${warning}`)

  const built = await readFile(swPath, 'utf8')
  if (built.includes(INJECTION_POINT)) {
    throw new Error(`[sw] ${SW_FILE} still contains ${INJECTION_POINT} after injection`)
  }
  config.logger.info(
    `[sw] ${path.relative(process.cwd(), swPath)}: precaches ${count} files, ${(size / 1024).toFixed(1)} KB`,
  )
}

// The dev worker precaches nothing (the dev server has no fixed file list);
// sw.ts skips the navigation fallback when the shell is not precached.
async function bundleDevWorker(entry: string, file: string): Promise<string> {
  const result = await build(
    workerBuildConfig('development', entry, file, {
      write: false,
      sourcemap: 'inline',
      minify: false,
    }),
  )
  const outputs = Array.isArray(result) ? result : [result]
  for (const output of outputs) {
    if (!('output' in output)) continue
    const chunk = output.output.find((file) => file.type === 'chunk' && file.isEntry)
    if (chunk?.type === 'chunk') return chunk.code.replace(INJECTION_POINT, '[]')
  }
  throw new Error('[sw] dev build produced no service worker chunk')
}

// A standalone build of sw/sw.ts: no project config file (its plugins and
// root belong to the app), no public dir, one self-contained classic script,
// because the app registers /sw.js without `type: 'module'`.
function workerBuildConfig(
  mode: string,
  entry: string,
  file: string,
  options: {
    outDir?: string
    emptyOutDir?: boolean
    write?: boolean
    sourcemap: ResolvedConfig['build']['sourcemap']
    minify: boolean
  },
): InlineConfig {
  const production = mode !== 'development'
  return {
    configFile: false,
    envDir: false,
    root: SW_DIR,
    publicDir: false,
    mode,
    logLevel: 'warn',
    // Workbox strips its logging and assertions in production builds.
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
    build: {
      ...options,
      copyPublicDir: false,
      modulePreload: false,
      reportCompressedSize: false,
      rolldownOptions: {
        input: entry,
        output: { format: 'iife', entryFileNames: file },
      },
    },
  }
}
