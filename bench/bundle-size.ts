// How much JavaScript a guest opening /login downloads, gzip-compressed.
// Run after `vite build`:  npm run size  (or: node --import tsx bench/bundle-size.ts [distDir])
//
// Counted: the module scripts and modulepreloads of dist/index.html, the
// chunks of the login route (and of its layout parents and the root route,
// when they are split out), and every chunk those import statically, found by
// parsing each built chunk and cross-checked with the Vite manifest
// (dist/.vite/manifest.json, `build.manifest: true`). Not counted: dynamic
// import() targets (other routes, lazy features), workers, the service
// worker, CSS, and route chunks that load only on error (errorComponent,
// notFoundComponent). Exits 1 when the total exceeds the limit.

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { constants, gzipSync } from 'node:zlib'
import { type Manifest, type ManifestChunk, parseSync } from 'vite'

// Budget for the guest's first screen: login must stay quick on a phone on a
// slow network (affiliate traffic lands on it, spec §1).
const LIMIT_BYTES = 150 * 1024
const GZIP_LEVEL = constants.Z_BEST_COMPRESSION // 9, what a static pre-compressor would use

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const DIST = path.resolve(process.argv[2] ?? path.join(REPO_ROOT, 'dist'))
const MANIFEST_PATH = path.join(DIST, '.vite', 'manifest.json')

// The route whose cost is measured, as URL path segments.
const TARGET_ROUTE = ['login']
// TanStack Router's autoCodeSplitting puts each split group in a virtual
// module `<route file>?tsr-split=<group---group>`. These groups load when
// the route is shown; errorComponent and notFoundComponent only on failure.
const NAVIGATION_SPLITS = new Set(['component', 'pendingComponent', 'loader'])
const ROUTES_DIR = 'routes/'
const ROOT_ROUTE = '__root'

type Counted = { file: string; reason: string }

function main(): void {
  const indexPath = path.join(DIST, 'index.html')
  if (!existsSync(indexPath)) {
    console.error(
      `bundle-size: ${path.relative(process.cwd(), indexPath)} not found; run \`npm run build\` first`,
    )
    process.exit(2)
  }
  const manifest = readManifest()
  const notes: string[] = []
  if (manifest === undefined) {
    notes.push(
      'no .vite/manifest.json: route chunks cannot be identified (set build.manifest: true)',
    )
  }

  // 1. What index.html loads up front.
  const roots: Counted[] = []
  for (const { url, kind } of htmlScripts(readFileSync(indexPath, 'utf8'))) {
    const file = distFile(url, '/')
    if (file === undefined) notes.push(`external script not counted: ${url}`)
    else roots.push({ file, reason: kind })
  }
  if (roots.length === 0) notes.push('index.html loads no module script')

  // 2. The chunks of the login route, its layout parents and the root route.
  if (manifest !== undefined) roots.push(...routeChunks(manifest, notes))

  // 3. Everything those import statically.
  const counted = followStaticImports(roots, manifest, notes)

  // 4. Report.
  const rows = [...counted].map(([file, reason]) => {
    const bytes = readFileSync(path.join(DIST, file))
    return { file, reason, raw: bytes.length, gzip: gzipSync(bytes, { level: GZIP_LEVEL }).length }
  })
  rows.sort((a, b) => b.gzip - a.gzip)
  const total = rows.reduce((sum, row) => sum + row.gzip, 0)
  const rawTotal = rows.reduce((sum, row) => sum + row.raw, 0)

  const width = Math.max(4, ...rows.map((row) => row.file.length))
  console.log(`${'file'.padEnd(width)}  ${'raw KB'.padStart(9)}  ${'gzip KB'.padStart(9)}  why`)
  for (const row of rows) {
    console.log(
      `${row.file.padEnd(width)}  ${kb(row.raw).padStart(9)}  ${kb(row.gzip).padStart(9)}  ${row.reason}`,
    )
  }
  console.log(`${'total'.padEnd(width)}  ${kb(rawTotal).padStart(9)}  ${kb(total).padStart(9)}`)
  for (const note of notes) console.log(`note: ${note}`)
  console.log(`guest /login JS: ${kb(total)} KB gzip (limit ${LIMIT_BYTES / 1024} KB)`)
  // The sync worker (zod + Dexie) runs in its own thread and starts after the
  // page; reported apart so its growth is visible, not counted in the budget.
  for (const file of readdirSync(path.join(DIST, 'assets')).filter((f) =>
    /^worker-.*\.js$/.test(f),
  )) {
    const bytes = readFileSync(path.join(DIST, 'assets', file))
    const gz = gzipSync(bytes, { level: GZIP_LEVEL }).length
    console.log(`sync worker JS (own thread, not in the budget): ${file} ${kb(gz)} KB gzip`)
  }
  if (total > LIMIT_BYTES) {
    console.error(`bundle-size: over budget by ${kb(total - LIMIT_BYTES)} KB gzip`)
    process.exit(1)
  }
}

function readManifest(): Manifest | undefined {
  if (!existsSync(MANIFEST_PATH)) return undefined
  return JSON.parse(readFileSync(MANIFEST_PATH, 'utf8')) as Manifest
}

// `<script type="module" src>` and `<link rel="modulepreload" href>` of the page.
function htmlScripts(html: string): Array<{ url: string; kind: string }> {
  const found: Array<{ url: string; kind: string }> = []
  for (const tag of html.matchAll(/<(script|link)\b([^>]*)>/gi)) {
    const attrs = attributes(tag[2] ?? '')
    if (tag[1]?.toLowerCase() === 'script') {
      if (attrs.type === 'module' && attrs.src)
        found.push({ url: attrs.src, kind: 'index.html script' })
    } else if (attrs.rel?.split(/\s+/).includes('modulepreload') && attrs.href) {
      found.push({ url: attrs.href, kind: 'index.html modulepreload' })
    }
  }
  return found
}

function attributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {}
  for (const m of source.matchAll(/([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    const name = m[1]
    if (name !== undefined) attrs[name.toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? ''
  }
  return attrs
}

// A URL as written in the page or a chunk, resolved against the URL of the
// file that names it, to a path inside dist/ (undefined for other origins).
function distFile(url: string, fromUrlPath: string): string | undefined {
  const base = new URL(fromUrlPath, 'http://dist.invalid')
  const resolved = new URL(url, base)
  if (resolved.origin !== base.origin) return undefined
  return decodeURIComponent(resolved.pathname).replace(/^\//, '')
}

// Manifest entries of the target route, its layout parents and the root
// route, limited to the split groups that load on navigation.
function routeChunks(manifest: Manifest, notes: string[]): Counted[] {
  const routes = Object.values(manifest).flatMap((chunk) => {
    const route = routeOf(chunk)
    return route === undefined ? [] : [{ chunk, ...route }]
  })
  const targets = routes.filter((r) => sameSegments(urlSegments(r.segments), TARGET_ROUTE))
  const targetFiles = [...new Set(targets.map((r) => r.file))]
  if (targetFiles.length === 0) {
    notes.push(
      `no split chunk for the /${TARGET_ROUTE.join('/')} route in the manifest (route missing or not code-split): only the entry graph is counted`,
    )
  }
  const counted: Counted[] = []
  for (const r of routes) {
    let role: string | undefined
    if (sameSegments(r.segments, [ROOT_ROUTE])) role = 'root route'
    else if (targetFiles.includes(r.file)) role = 'login route'
    else if (!r.index && targets.some((t) => isPrefix(r.segments, t.segments)))
      role = 'layout of login'
    if (role === undefined) continue
    if (r.splits !== undefined && !r.splits.some((s) => NAVIGATION_SPLITS.has(s))) {
      notes.push(`not counted (loads only on error): ${r.chunk.file} (${r.chunk.src})`)
      continue
    }
    counted.push({ file: r.chunk.file, reason: `${role} ${r.chunk.src ?? ''}`.trim() })
  }
  return counted
}

// A route file's place in the tree: `routes/_public/login.tsx`,
// `routes/_public.login.tsx` and `routes/_public/login/route.tsx` all give
// segments ['_public', 'login'].
function routeOf(
  chunk: ManifestChunk,
): { file: string; segments: string[]; index: boolean; splits: string[] | undefined } | undefined {
  if (chunk.src === undefined) return undefined
  const [file = '', query = ''] = chunk.src.split('?')
  if (!file.startsWith(ROUTES_DIR) || !/\.[jt]sx?$/.test(file)) return undefined
  const split = new URLSearchParams(query).get('tsr-split')
  const segments = file
    .slice(ROUTES_DIR.length)
    .replace(/\.[jt]sx?$/, '')
    .replace(/\.lazy$/, '')
    .split(/[/.]/)
  const last = segments.at(-1)
  const index = last === 'index'
  if (index || last === 'route') segments.pop()
  return { file, segments, index, splits: split === null ? undefined : split.split('---') }
}

// URL path segments: pathless layouts (`_name`) and groups (`(name)`) add none.
function urlSegments(segments: string[]): string[] {
  return segments
    .filter((s) => !s.startsWith('_') && !/^\(.*\)$/.test(s))
    .map((s) => s.replace(/_$/, ''))
}

function sameSegments(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i])
}

function isPrefix(prefix: string[], of: string[]): boolean {
  return prefix.length < of.length && prefix.every((s, i) => s === of[i])
}

// Walks static `import`/`export ... from` statements of the built chunks
// (parsed, so a string that looks like an import is not one, and import()
// is left out), plus the manifest's `imports` of each chunk.
function followStaticImports(
  roots: Counted[],
  manifest: Manifest | undefined,
  notes: string[],
): Map<string, string> {
  const byFile = new Map<string, ManifestChunk>()
  for (const chunk of Object.values(manifest ?? {})) byFile.set(chunk.file, chunk)

  const counted = new Map<string, string>()
  const queue = [...roots]
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    if (counted.has(item.file)) continue
    const full = path.join(DIST, item.file)
    if (!existsSync(full)) {
      notes.push(`missing file, not counted: ${item.file} (${item.reason})`)
      continue
    }
    counted.set(item.file, item.reason)
    if (!/\.m?js$/.test(item.file)) continue
    const reason = `static import of ${item.file}`
    for (const specifier of staticImports(item.file, readFileSync(full, 'utf8'), notes)) {
      const file = distFile(specifier, `/${item.file}`)
      if (file === undefined)
        notes.push(`external import not counted: ${specifier} (in ${item.file})`)
      else queue.push({ file, reason })
    }
    for (const key of byFile.get(item.file)?.imports ?? []) {
      const file = manifest?.[key]?.file
      if (file !== undefined) queue.push({ file, reason })
    }
  }
  return counted
}

function staticImports(file: string, code: string, notes: string[]): string[] {
  const { module, errors } = parseSync(file, code, { sourceType: 'module' })
  if (errors.length > 0)
    notes.push(`${file}: ${errors.length} parse error(s); imports may be missed`)
  const specifiers = module.staticImports.map((i) => i.moduleRequest.value)
  for (const statement of module.staticExports) {
    for (const entry of statement.entries) {
      if (entry.moduleRequest) specifiers.push(entry.moduleRequest.value)
    }
  }
  return [...new Set(specifiers)]
}

function kb(bytes: number): string {
  return (bytes / 1024).toFixed(1)
}

main()
