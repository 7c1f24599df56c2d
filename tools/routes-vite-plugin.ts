// Vite plugin that writes the app's route table to <outDir>/routes.json at
// build time, so the server (api/site/route-table.ts) answers a path no route
// matches with HTTP 404 (spec §2 "Unknown paths give 404"). The paths come
// from the router's generated tree (app/routeTree.gen.ts), so a route any
// page adds is covered with no list to keep by hand.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Plugin, ResolvedConfig } from 'vite'

export const ROUTES_FILE = 'routes.json'

/** The `fullPaths` union of a generated route tree: every page's path pattern. */
export function routePatterns(routeTreeSource: string): string[] {
  const block = /fullPaths:\s*((?:\s*\|\s*'[^']*')+)/.exec(routeTreeSource)?.[1]
  if (!block) throw new Error('routeTree.gen.ts: no fullPaths union found')
  const paths = [...block.matchAll(/'([^']*)'/g)].map((m) => m[1] ?? '')
  return [...new Set(paths)].sort()
}

export function routesPlugin(routeTreeFile: string): Plugin {
  let config: ResolvedConfig
  return {
    name: 'amora-routes-json',
    apply: 'build',
    configResolved(c) {
      config = c
    },
    generateBundle() {
      // Read after the router plugin regenerated the tree (its buildStart).
      const patterns = routePatterns(readFileSync(routeTreeFile, 'utf8'))
      this.emitFile({
        type: 'asset',
        fileName: ROUTES_FILE,
        source: `${JSON.stringify(patterns, null, 1)}\n`,
      })
      config.logger.info(
        `routes: ${patterns.length} path patterns in ${path.join(config.build.outDir, ROUTES_FILE)}`,
      )
    },
  }
}
