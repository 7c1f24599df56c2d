// Vite plugin that builds the server render of the public pages
// (app/entry-server.tsx) after the browser build, as a second Vite build in
// SSR mode, into <outDir>-ssr/entry-server.js (dist-ssr/), outside the
// served and precached dist/. The API server imports it when it exists
// (api/site/prerender.ts) and serves the plain shell otherwise.
//
// The SSR build has no route code splitting (the server imports every route
// at once) and no service worker, route table or precompressed copies: those
// belong to the browser build. node_modules stay external (Node loads React,
// the router and the icons from node_modules at run time).
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { build, type Plugin } from 'vite'
import { afterClientBuild } from './after-client-build.ts'

const APP_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../app')
export const SSR_ENTRY_FILE = 'entry-server.js'

/** Where the server render of a build in `outDir` is written. */
export const ssrDirOf = (outDir: string) => `${outDir.replace(/[/\\]+$/, '')}-ssr`

export function ssrPlugin(): Plugin {
  return afterClientBuild('amora:ssr', async (config) => {
    const outDir = ssrDirOf(path.resolve(config.root, config.build.outDir))
    await build({
      configFile: false,
      envDir: false,
      root: APP_DIR,
      publicDir: false,
      mode: config.mode,
      // Its chunking notes repeat the browser build's; errors still show.
      logLevel: 'error',
      plugins: [react()],
      build: {
        ssr: path.join(APP_DIR, 'entry-server.tsx'),
        outDir,
        emptyOutDir: true,
        copyPublicDir: false,
        minify: false,
        sourcemap: true,
        reportCompressedSize: false,
        rolldownOptions: { output: { entryFileNames: SSR_ENTRY_FILE } },
      },
    })
    config.logger.info(`[ssr] ${path.relative(process.cwd(), outDir)}/${SSR_ENTRY_FILE}`)
  })
}
