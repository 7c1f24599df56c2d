import { fileURLToPath } from 'node:url'
import { paraglideVitePlugin } from '@inlang/paraglide-js'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { paraglideOptions } from './messages/options.ts'
import { singleEntryChunk } from './tools/entry-chunks.ts'
import { lightPlugin } from './tools/light-vite-plugin.ts'
import { precompressPlugin } from './tools/precompress-vite-plugin.ts'
import { routesPlugin } from './tools/routes-vite-plugin.ts'
import { ssrPlugin } from './tools/ssr-vite-plugin.ts'
import { serviceWorkerPlugin } from './tools/sw-vite-plugin.ts'

/** The route files (their components) of a member's first page, /members. */
const MEMBERS_FIRST_LOAD = [
  '_default.tsx',
  '_default/_member.tsx',
  '_default/_member/members/index.tsx',
]

// The API server (api/server.ts) serves dist/ in production; `npm run dev`
// proxies /api and /media to it.
export default defineConfig({
  root: 'app',
  publicDir: '../public',
  // manifest: dist/.vite/manifest.json (which built file each source became).
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    // Maps are written (for debugging) but the scripts do not point at them;
    // the server serves them only with SOURCE_MAPS=public (api/server.ts).
    sourcemap: 'hidden',
    manifest: true,
    // Every browser the PWA serves preloads modules itself (Chromium, Firefox
    // 115+, Safari 17+); an older one only loads them a little later.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The app. The light entry (app/lander.tsx: the landers and a guest's
      // first page) is built once per language by lightPlugin below.
      input: {
        index: fileURLToPath(new URL('./app/index.html', import.meta.url)),
        // A prerendered page's first script: the light entry after the first
        // paint (api/site/prerender.ts).
        boot: fileURLToPath(new URL('./app/boot.ts', import.meta.url)),
      },
      output: {
        codeSplitting: {
          // What the app imports statically in one file (it compresses
          // better and costs one request instead of some thirty small ones);
          // route chunks stay apart (tools/entry-chunks.ts).
          groups: singleEntryChunk(
            fileURLToPath(new URL('./app/main.tsx', import.meta.url)),
            'shell',
            // A member's first page is /members (where a login lands): its
            // layouts and the page, and what they import, come with the
            // shell (docs/performance.md, "Main-thread JavaScript").
            {
              with: MEMBERS_FIRST_LOAD.map(
                (route) =>
                  `${fileURLToPath(new URL(`./app/routes/${route}`, import.meta.url))}?tsr-split=component`,
              ),
            },
          ),
        },
      },
    },
  },
  worker: { format: 'es' },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' },
  },
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: fileURLToPath(new URL('./app/routes', import.meta.url)),
      generatedRouteTree: fileURLToPath(new URL('./app/routeTree.gen.ts', import.meta.url)),
      autoCodeSplitting: true,
    }),
    react(),
    paraglideVitePlugin({ ...paraglideOptions, strategy: [...paraglideOptions.strategy] }),
    // dist/routes.json: the route table the server answers 404 by (api/site/route-table.ts).
    routesPlugin(fileURLToPath(new URL('./app/routeTree.gen.ts', import.meta.url))),
    // Builds sw/sw.ts into dist/sw.js with the precache manifest (serves it in dev).
    serviceWorkerPlugin(),
    // dist-ssr/entry-server.js: the server render of the public pages (api/site/prerender.ts).
    ssrPlugin(),
    // dist/l/<locale>/: the light entry once per language, its texts only (docs/performance.md, "Main-thread JavaScript").
    lightPlugin(),
    // After the service worker is written: .br and .gz copies of every text asset.
    precompressPlugin(),
  ],
})
