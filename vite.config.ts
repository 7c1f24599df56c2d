import { paraglideVitePlugin } from '@inlang/paraglide-js'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { paraglideOptions } from './messages/options.ts'

// The API server (api/server.ts) serves dist/ in production; `npm run dev`
// proxies /api and /media to it.
export default defineConfig({
  root: 'app',
  publicDir: '../public',
  build: { outDir: '../dist', emptyOutDir: true, sourcemap: true },
  worker: { format: 'es' },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' },
  },
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: './app/routes',
      generatedRouteTree: './app/routeTree.gen.ts',
      autoCodeSplitting: true,
    }),
    react(),
    paraglideVitePlugin({ ...paraglideOptions, strategy: [...paraglideOptions.strategy] }),
  ],
})
