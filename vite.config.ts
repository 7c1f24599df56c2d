import { fileURLToPath } from 'node:url'
import { paraglideVitePlugin } from '@inlang/paraglide-js'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { entryChunks } from './tools/entry-chunks.ts'
import { paraglideOptions } from './messages/options.ts'
import { precompressPlugin } from './tools/precompress-vite-plugin.ts'
import { routesPlugin } from './tools/routes-vite-plugin.ts'
import { ssrPlugin } from './tools/ssr-vite-plugin.ts'
import { serviceWorkerPlugin } from './tools/sw-vite-plugin.ts'

// The API server (api/server.ts) serves dist/ in production; `npm run dev`
// proxies /api and /media to it.
export default defineConfig({
  root: 'app',
  publicDir: '../public',
  // manifest: dist/.vite/manifest.json (which built file each source became).
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      // The app, and the landers' light entry (app/lander.tsx: a lander's
      // first load without the router, README "Landers").
      input: {
        index: fileURLToPath(new URL('./app/index.html', import.meta.url)),
        lander: fileURLToPath(new URL('./app/lander.html', import.meta.url)),
        // A prerendered page's first script: the app's entry after the first
        // paint (api/site/prerender.ts).
        boot: fileURLToPath(new URL('./app/boot.ts', import.meta.url)),
      },
      output: {
        codeSplitting: {
          // What each entry imports statically: one file for the app, one
          // for the landers' entry, one for what both import (tools/entry-chunks.ts).
          // Route chunks stay apart.
          groups: entryChunks({
            app: fileURLToPath(new URL('./app/main.tsx', import.meta.url)),
            lander: fileURLToPath(new URL('./app/lander.tsx', import.meta.url)),
            landerRoutes:
              /[\\/]app[\\/]routes[\\/](_lander[\\/]|_empty[\\/](landers|members)[\\/])/,
          }),
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
    // After the service worker is written: .br and .gz copies of every text asset.
    precompressPlugin(),
  ],
})
