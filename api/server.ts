import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono } from 'hono'
import type { AppDeps } from './app.ts'
import { createApi } from './app.ts'

export interface ServerOptions extends AppDeps {
  /** The built PWA (vite build output). */
  distDir: string
  mediaDir: string
}

const IMMUTABLE = 'public, max-age=31536000, immutable'

/**
 * The one Node process of `npm start`: API, pictures and the PWA. Every path
 * that is not an API call, a picture or a built file gets the app shell, whose
 * router shows the page (or its 404 "Page Not Found").
 */
export function createServer({ distDir, ...deps }: ServerOptions) {
  const { mediaDir } = deps
  const dist = resolve(distDir)
  const indexHtml = existsSync(`${dist}/index.html`)
    ? readFileSync(`${dist}/index.html`, 'utf8')
    : '<!doctype html><title>Build missing</title><p>Run npm run build.</p>'

  return new Hono()
    .route('/', createApi(deps))
    .use(
      '/media/*',
      serveStatic({
        root: resolve(mediaDir),
        rewriteRequestPath: (p) => p.replace(/^\/media/, ''),
        // Picture names are random and never reused for other content.
        onFound: (_p, c) => c.header('Cache-Control', IMMUTABLE),
      }),
    )
    .get('/media/*', (c) => c.text('Not Found', 404))
    .use(
      '*',
      serveStatic({
        root: dist,
        onFound: (path, c) => {
          // Hashed assets never change; the worker and the manifest must be
          // revalidated so an update reaches members.
          c.header('Cache-Control', path.includes('/assets/') ? IMMUTABLE : 'no-cache')
        },
      }),
    )
    .get('*', (c) => {
      c.header('Cache-Control', 'no-cache')
      return c.html(indexHtml)
    })
}
