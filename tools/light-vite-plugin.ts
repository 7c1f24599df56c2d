// Vite plugin: after the browser build, the light entry (app/lander.tsx: the
// landers and a guest's first page, docs/performance.md, "Main-thread JavaScript") once
// more per locale, into <outDir>/l/<locale>/ and served from /l/<locale>/.
//
// Why: every Paraglide message is one module with the text in all seven
// languages and a function that picks one at run time, so a page's texts
// cost seven times their size: about 20 of a guest home's 115 KB of gzip
// JavaScript were other languages' texts. A visitor's first page comes in
// one language (the server chose it, api/server.ts), so each copy is built
// with its locale fixed (Paraglide's `experimentalStaticLocale`) and each
// message reduced to that locale's text; a visitor who picks another
// language gets a page load (setLocale reloads), which the server answers
// with that language's copy. The app itself (members, index.html) stays one
// build with every language: it switches language in place and is precached.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { build, type Plugin } from 'vite'
import { afterClientBuild } from './after-client-build.ts'
import { singleEntryChunk } from './entry-chunks.ts'

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const APP_DIR = path.join(ROOT, 'app')

/** Where the light entry of `locale` is served (and lies under the build's outDir). */
export const lightBase = (locale: string) => `/l/${locale}/`

/** The project's locales (project.inlang/settings.json). */
export function projectLocales(): string[] {
  const settings = JSON.parse(readFileSync(path.join(ROOT, 'project.inlang/settings.json'), 'utf8'))
  return settings.locales as string[]
}

const MESSAGE_MODULE = /[\\/]messages[\\/]paraglide[\\/]messages[\\/](?!_index)[^\\/]+\.js$/
const RUNTIME_MODULE = /[\\/]messages[\\/]paraglide[\\/]runtime\.js$/
const STATIC_LOCALE = 'export const experimentalStaticLocale = undefined;'
const PICK = /^\tif \(locale === "[\w-]+"\) return \w+\(inputs\)\n/gm
const FALLBACK = /^\treturn en_(\w+)\(inputs\)$/m

/**
 * A Paraglide message module reduced to `locale`'s text: the picker's
 * branches go, its answer is that locale's function, and the other locales'
 * functions are left unused for the bundler to drop. Throws when the module
 * is not shaped as Paraglide 2 writes it, so a new compiler version fails
 * the build instead of shipping every language.
 */
export function oneLocaleMessage(code: string, locale: string, id = 'message'): string {
  if (!FALLBACK.test(code)) throw new Error(`light build: ${id} has no Paraglide message picker`)
  return code
    .replace(PICK, '')
    .replace(FALLBACK, (_, name: string) => `\treturn ${locale}_${name}(inputs)`)
}

/** The runtime with the locale fixed: getLocale() answers it, setLocale() to another reloads. */
export function staticLocaleRuntime(code: string, locale: string): string {
  if (!code.includes(STATIC_LOCALE))
    throw new Error('light build: the Paraglide runtime has no experimentalStaticLocale')
  return code.replace(
    STATIC_LOCALE,
    `export const experimentalStaticLocale = ${JSON.stringify(locale)};`,
  )
}

function staticLocale(locale: string): Plugin {
  return {
    name: 'amora:static-locale',
    // Before any other transform: the module as Paraglide wrote it.
    enforce: 'pre',
    transform(code, id) {
      if (MESSAGE_MODULE.test(id)) return { code: oneLocaleMessage(code, locale, id), map: null }
      if (RUNTIME_MODULE.test(id)) return { code: staticLocaleRuntime(code, locale), map: null }
      return null
    },
  }
}

export function lightPlugin(): Plugin {
  return afterClientBuild('amora:light', async (config) => {
    const outDir = path.resolve(config.root, config.build.outDir)
    for (const locale of projectLocales()) {
      const dir = path.join(outDir, lightBase(locale))
      await build({
        configFile: false,
        envDir: false,
        root: APP_DIR,
        base: lightBase(locale),
        publicDir: false,
        mode: config.mode,
        logLevel: 'error',
        plugins: [react(), staticLocale(locale)],
        worker: { format: 'es' },
        build: {
          outDir: dir,
          emptyOutDir: true,
          copyPublicDir: false,
          sourcemap: config.build.sourcemap,
          reportCompressedSize: false,
          // A dynamic import's chunks are not announced by <link
          // rel=modulepreload> elements appended one by one (on the guest
          // home, 21 links in about 45 ms of main thread, profiled, before
          // hydration could start); the browser finds a page's chunks through
          // their static imports instead. The HTML keeps its own (the server
          // turns them into the boot script's list, api/site/prerender.ts).
          // No polyfill (as the app's build, vite.config.ts).
          modulePreload: {
            polyfill: false,
            resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []),
          },
          rolldownOptions: {
            input: { lander: path.join(APP_DIR, 'lander.html') },
            // What the entry imports statically in one file (no preload
            // links for the page to wait on); its pages stay apart.
            output: {
              codeSplitting: {
                groups: singleEntryChunk(path.join(APP_DIR, 'lander.tsx'), 'lander'),
              },
            },
          },
        },
      })
      if (!existsSync(path.join(dir, 'lander.html')))
        throw new Error(`light build: ${dir}/lander.html was not written`)
    }
    config.logger.info(`[light] ${path.relative(process.cwd(), outDir)}/l/<locale>/lander.html`)
  })
}
