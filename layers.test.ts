// The layer rules of ARCHITECTURE.md ("Folders and what they may import"),
// checked on every .ts/.tsx file of the repository. Imports are read from the
// syntax tree (oxc, through Vite), so a comment or a string that looks like an
// import never counts, and type-only imports count like any other: they couple
// the layers all the same. The one exception: sw/ may take types (only) from
// the contract's zod-free rules/, the wire types it shares with the server.
import { readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, posix, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseSync } from 'vite'
import { describe, expect, it } from 'vitest'

interface SourceFile {
  /** Repository-relative, with forward slashes. */
  path: string
  source: string
}

interface Violation {
  file: string
  specifier: string
  rule: string
}

const ROOT = fileURLToPath(new URL('.', import.meta.url))
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.data', 'messages/paraglide'])
const GENERATED = /\.gen\.tsx?$/

/** Packages that only the server may load (ARCHITECTURE: app/ and sync/ never import server code). */
const SERVER_PACKAGES = [
  'hono',
  'drizzle-orm',
  'drizzle-kit',
  'pg',
  '@electric-sql/pglite',
  '@node-rs/argon2',
  'sharp',
  ...builtinModules,
]
const isServerPackage = (name: string) =>
  name.startsWith('node:') || name.startsWith('@hono/') || SERVER_PACKAGES.includes(name)

/** `@scope/name` or `name` of a bare specifier. */
const packageName = (specifier: string) => {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier)
}

type Node = { type?: string; [key: string]: unknown }

const stringValue = (node: unknown): string | undefined => {
  const n = node as Node | null
  if (n?.type === 'Literal' && typeof n.value === 'string') return n.value
  // import(`./x.ts`) without expressions is as static as a string.
  if (n?.type === 'TemplateLiteral' && (n.expressions as unknown[]).length === 0) {
    return ((n.quasis as { value: { cooked: string } }[])[0]?.value.cooked ?? '') || undefined
  }
  return undefined
}

const isImportMetaUrl = (node: unknown) => {
  const n = node as Node | null
  const object = n?.object as Node | undefined
  return (
    n?.type === 'MemberExpression' &&
    object?.type === 'MetaProperty' &&
    (n.property as Node).name === 'url'
  )
}

/** One module reference of a file; `typeOnly` when it brings in types only (erased at build). */
interface ImportRef {
  specifier: string
  typeOnly: boolean
}

interface Scan {
  imports: ImportRef[]
  /** Dexie write calls on the local store (`localDb().x.put(...)`, `db.x.clear()`). */
  storeWrites: string[]
}

const STORE_WRITES = new Set([
  'put',
  'bulkPut',
  'add',
  'bulkAdd',
  'delete',
  'bulkDelete',
  'clear',
  'update',
  'bulkUpdate',
  'modify',
])

/** Whether a member chain starts at the store: `localDb()` or a variable named `db`. */
function rootedInStore(node: unknown): boolean {
  let n = node as Node | undefined
  while (n) {
    if (n.type === 'CallExpression') {
      const callee = n.callee as Node
      if (callee.type === 'Identifier' && callee.name === 'localDb') return true
      n = callee
    } else if (n.type === 'MemberExpression') {
      n = n.object as Node
    } else {
      return n.type === 'Identifier' && n.name === 'db'
    }
  }
  return false
}

const allTypes = (specifiers: unknown, key: 'importKind' | 'exportKind') => {
  const list = (specifiers as Node[] | undefined) ?? []
  return list.length > 0 && list.every((s) => s[key] === 'type')
}

/**
 * Every module a file refers to: static imports (type-only too), re-exports,
 * dynamic import(), import types, `import x = require()`, and
 * `new URL('...', import.meta.url)` (how workers and assets are referenced);
 * and the store writes it makes.
 */
function scan(file: SourceFile): Scan {
  const { program, errors } = parseSync(file.path, file.source)
  if (errors.length > 0) throw new Error(`${file.path}: ${errors[0]?.message}`)
  const imports: ImportRef[] = []
  const storeWrites: string[] = []
  const visit = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child)
      return
    }
    if (typeof node !== 'object' || node === null) return
    const n = node as Node
    let specifier: string | undefined
    let typeOnly = false
    switch (n.type) {
      case 'ImportDeclaration':
        specifier = stringValue(n.source)
        typeOnly = n.importKind === 'type' || allTypes(n.specifiers, 'importKind')
        break
      case 'ExportNamedDeclaration':
        specifier = stringValue(n.source)
        typeOnly = n.exportKind === 'type' || allTypes(n.specifiers, 'exportKind')
        break
      case 'ExportAllDeclaration':
        specifier = stringValue(n.source)
        typeOnly = n.exportKind === 'type'
        break
      case 'ImportExpression':
        specifier = stringValue(n.source)
        break
      case 'TSImportType':
        specifier = stringValue(n.source)
        typeOnly = true
        break
      case 'TSExternalModuleReference':
        specifier = stringValue(n.expression)
        break
      case 'NewExpression': {
        const args = n.arguments as unknown[]
        if ((n.callee as Node).name === 'URL' && isImportMetaUrl(args[1])) {
          specifier = stringValue(args[0])
        }
        break
      }
      case 'CallExpression': {
        const callee = n.callee as Node
        const name = (callee.property as Node | undefined)?.name
        if (
          callee.type === 'MemberExpression' &&
          typeof name === 'string' &&
          STORE_WRITES.has(name) &&
          rootedInStore(callee.object)
        ) {
          storeWrites.push(name)
        }
        break
      }
    }
    if (specifier !== undefined) imports.push({ specifier, typeOnly })
    for (const [key, value] of Object.entries(n)) {
      if (key !== 'type' && typeof value === 'object') visit(value)
    }
  }
  visit(program)
  return { imports, storeWrites }
}

type Layer = 'app' | 'sync' | 'sw' | 'contract' | 'api' | 'db' | 'other'

function layerOf(path: string): Layer {
  if (path.startsWith('api/contract/')) return 'contract'
  const top = path.split('/')[0]
  return top === 'app' || top === 'sync' || top === 'sw' || top === 'api' || top === 'db'
    ? top
    : 'other'
}

/**
 * What each layer may not import, by the target's layer. app/ and sync/ reach
 * the server only through api/contract; sw/ stands alone but for types from
 * the contract's zod-free rules/ (erased at build, see violationsOf); db/
 * stays below api/ (the seed gets its password hash injected for that reason).
 */
const FORBIDDEN: Record<Layer, Layer[]> = {
  app: ['api', 'db'],
  sync: ['api', 'db', 'app'],
  sw: ['app', 'sync', 'api', 'contract', 'db'],
  api: ['app', 'sync', 'sw'],
  contract: ['app', 'sync', 'sw', 'api', 'db', 'other'],
  db: ['app', 'sync', 'sw', 'api', 'contract'],
  other: [],
}

const isTest = (path: string) =>
  /\.test\.tsx?$/.test(path) ||
  /\.e2e\.ts$/.test(path) ||
  path.startsWith('api/test/') ||
  path.startsWith('sync/test/') ||
  path.startsWith('e2e/') ||
  path.startsWith('bench/') ||
  path.startsWith('integration/')

/** What app/data/ may use of the worker's side: its client, the store, and pure view helpers. */
const DATA_MAY_IMPORT = [
  'sync/client.ts',
  'sync/store/',
  'sync/members/view.ts',
  'sync/likes/reconcile.ts',
]

/**
 * api/'s shared folders: the contract, the HTTP plumbing, the job queue, the
 * live-event bus, the mailer, small shared pieces, test helpers. Every other
 * folder of api/ is a domain (ARCHITECTURE "Domains are boundaries").
 */
const API_SHARED = new Set(['contract', 'http', 'jobs', 'events', 'mail', 'shared', 'test'])

/** The api/ domain folder a path is in (`api/chats/x.ts` → chats), or null. */
const domainOf = (path: string): string | null => {
  const folder = /^api\/([^/]+)\//.exec(path)?.[1]
  return folder && !API_SHARED.has(folder) ? folder : null
}

/** An API module that serves routes: it validates and calls services, it does not query. */
const isRoutesFile = (path: string) => /^api\/[^/]+\/([^/]+-)?routes\.ts$/.test(path)

/** app/routes/X/-components/... → app/routes/X, the route folder the components belong to. */
const componentsOwner = (path: string) => /^(app\/routes\/.*?)\/-components\//.exec(path)?.[1]

function violationsOf(file: SourceFile, ref: ImportRef): Violation[] {
  const { specifier, typeOnly } = ref
  const from = layerOf(file.path)
  const test = isTest(file.path)
  const v = (rule: string): Violation[] => [{ file: file.path, specifier, rule }]
  const bare = !specifier.startsWith('.') && !specifier.startsWith('/')
  if (bare) {
    const name = packageName(specifier)
    if (from === 'contract' && name !== 'zod') return v('api/contract imports zod only')
    if ((from === 'app' || from === 'sync') && isServerPackage(name)) {
      return v(`${from}/ must not load the server package ${name}`)
    }
    if (from === 'app' && name === 'zod' && !typeOnly && !test) {
      return v('app/ loads no zod on the main thread')
    }
    if (from === 'sw' && !test && !name.startsWith('workbox-')) {
      return v('sw/ loads only workbox and its own files')
    }
    if (isRoutesFile(file.path) && name === 'drizzle-orm' && !typeOnly) {
      return v('routes do not query the schema (services do)')
    }
    return []
  }
  // Root-relative paths are the client's public URLs (Vite serves public/), not modules.
  if (specifier.startsWith('/')) return []
  const target = posix.normalize(posix.join(posix.dirname(file.path), specifier.split('?')[0]!))
  const to = layerOf(target)
  if (from === 'contract') {
    return target.startsWith('api/contract/') ? [] : v('api/contract imports zod and itself only')
  }
  if (from === 'sw' && to === 'contract') {
    // The wire types the server and the worker share (the push payload):
    // types only, so the worker's bundle gets no code of the contract.
    return typeOnly && target.startsWith('api/contract/rules/')
      ? []
      : v('sw/ takes only types from api/contract/rules/')
  }
  if (FORBIDDEN[from].includes(to)) {
    return v(`${from}/ must not import ${to === 'contract' ? 'api/contract' : `${to}/`}`)
  }
  const domain = domainOf(file.path)
  const targetDomain = domainOf(target)
  if (targetDomain && !test && targetDomain !== domain) {
    if (domain && target !== `api/${targetDomain}/index.ts`) {
      return v('a domain uses another domain only through its index.ts')
    }
    const folder = /^api\/([^/]+)\//.exec(file.path)?.[1]
    if (folder && API_SHARED.has(folder)) {
      return v("api/'s shared folders never import a domain")
    }
  }
  if (from === 'app' && to === 'sync' && !test) {
    const data = file.path.startsWith('app/data/')
    const allowed = data
      ? DATA_MAY_IMPORT.some((t) => (t.endsWith('/') ? target.startsWith(t) : target === t))
      : typeOnly && target === 'sync/client.ts'
    if (!allowed) return v('app/ reaches the worker and the store only through app/data/')
  }
  if (from === 'app' && to === 'contract' && !test) {
    if (!typeOnly && !target.startsWith('api/contract/rules/')) {
      return v('app/ imports from the contract only types and rules/')
    }
  }
  if (target.startsWith('db/seed/') && !file.path.startsWith('db/seed/')) {
    if (!test && file.path !== 'api/start.ts') {
      return v('only start-up and tests import db/seed/')
    }
  }
  if (isRoutesFile(file.path) && target.startsWith('db/schema/')) {
    return v('routes do not query the schema (services do)')
  }
  if (from === 'sw' && !test && !target.startsWith('sw/')) {
    return v('sw/ loads only workbox and its own files')
  }
  const owner = componentsOwner(target)
  if (
    owner &&
    from === 'app' &&
    !file.path.startsWith(`${owner}/`) &&
    file.path !== `${owner}.tsx`
  ) {
    return v("a route does not import another route's -components/")
  }
  return []
}

/** Every layer violation in `files`, with Dexie writes from app/. */
function checkLayers(files: SourceFile[]): Violation[] {
  return files.flatMap((file) => {
    const { imports, storeWrites } = scan(file)
    const writes =
      layerOf(file.path) === 'app' && !isTest(file.path)
        ? storeWrites.map((w) => ({
            file: file.path,
            specifier: `.${w}()`,
            rule: 'app/ never writes the local store (the worker does)',
          }))
        : []
    return [...imports.flatMap((ref) => violationsOf(file, ref)), ...writes]
  })
}

/**
 * Import cycles among the given files (relative imports, type-only ones
 * included: they tie the modules together all the same). Each cycle is
 * reported once, as the path that closes it.
 */
function importCycles(files: SourceFile[]): string[] {
  const paths = new Set(files.map((f) => f.path))
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const targets = scan(file)
      .imports.filter((r) => r.specifier.startsWith('.'))
      .map((r) => posix.normalize(posix.join(posix.dirname(file.path), r.specifier.split('?')[0]!)))
      .filter((t) => paths.has(t))
    graph.set(file.path, targets)
  }
  const cycles: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (node: string) => {
    state.set(node, 'open')
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') {
        cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '))
      } else if (!state.has(next)) {
        visit(next)
      }
    }
    stack.pop()
    state.set(node, 'done')
  }
  for (const node of graph.keys()) if (!state.has(node)) visit(node)
  return cycles
}

/**
 * Cycles between api/ domain folders (tests left out): a domain that imports
 * another which imports it back, through any number of folders. Each cycle is
 * reported once, as the folder path that closes it.
 */
function domainCycles(files: SourceFile[]): string[] {
  const graph = new Map<string, Set<string>>()
  for (const file of files) {
    const from = domainOf(file.path)
    if (!from || isTest(file.path)) continue
    const edges = graph.get(from) ?? new Set<string>()
    graph.set(from, edges)
    for (const ref of scan(file).imports) {
      if (!ref.specifier.startsWith('.')) continue
      const target = posix.normalize(
        posix.join(posix.dirname(file.path), ref.specifier.split('?')[0]!),
      )
      const to = domainOf(target)
      if (to && to !== from) edges.add(to)
    }
  }
  const cycles: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (node: string) => {
    state.set(node, 'open')
    stack.push(node)
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (state.get(next) === 'open') {
        cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '))
      } else if (!state.has(next)) {
        visit(next)
      }
    }
    stack.pop()
    state.set(node, 'done')
  }
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node)
  return cycles
}

/** The repository's own .ts/.tsx sources, generated and third-party files left out. */
function repositoryFiles(dir = ROOT): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry): SourceFile[] => {
    const full = join(dir, entry.name)
    const path = relative(ROOT, full).split('\\').join('/')
    if (entry.isDirectory()) {
      if (entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name) || SKIPPED_DIRS.has(path)) {
        return []
      }
      return repositoryFiles(full)
    }
    if (!/\.tsx?$/.test(entry.name) || GENERATED.test(entry.name)) return []
    return [{ path, source: readFileSync(full, 'utf8') }]
  })
}

const format = (v: Violation) => `${v.file} -> ${v.specifier}  (${v.rule})`

describe('layer rules', () => {
  it('hold for every source file', () => {
    const files = repositoryFiles()
    // Guards against a scan that silently finds nothing.
    for (const layer of ['app', 'sync', 'sw', 'api', 'db', 'contract'] as const) {
      expect(
        files.some((f) => layerOf(f.path) === layer),
        `files in ${layer}`,
      ).toBe(true)
    }
    const lines = checkLayers(files).map(format)
    expect(lines, `layer violations:\n${lines.join('\n')}`).toEqual([])
  })

  it('no import cycles', () => {
    const cycles = importCycles(repositoryFiles())
    expect(cycles, `import cycles:\n${cycles.join('\n')}`).toEqual([])
  })

  it('no import cycle between api/ domain folders', () => {
    const files = repositoryFiles()
    const domains = new Set(files.map((f) => domainOf(f.path)).filter(Boolean))
    // Guards against a scan that finds no domain at all.
    expect(domains.size, [...domains].join(' ')).toBeGreaterThan(10)
    const cycles = domainCycles(files)
    expect(cycles, `domain cycles:\n${cycles.join('\n')}`).toEqual([])
  })

  it('the domain cycle check finds a cycle through entries and internals alike (self-check)', () => {
    const files: SourceFile[] = [
      { path: 'api/chats/send.ts', source: "import { debit } from '../credits/index.ts'" },
      { path: 'api/credits/ledger.ts', source: "import { x } from '../push/events.ts'" },
      { path: 'api/push/events.ts', source: "import type { C } from '../chats/index.ts'" },
      { path: 'api/push/x.test.ts', source: "import { y } from '../likes/index.ts'" },
      { path: 'api/likes/likes.ts', source: "import { z } from '../push/index.ts'" },
      { path: 'api/http/session.ts', source: "import { w } from '../jobs/queue.ts'" },
    ]
    expect(domainCycles(files)).toEqual(['chats -> credits -> push -> chats'])
  })

  it('the cycle check finds a cycle, type-only imports included (self-check)', () => {
    const files: SourceFile[] = [
      { path: 'sync/a.ts', source: "import { b } from './b.ts'\nexport const a = 1" },
      { path: 'sync/b.ts', source: "import type { C } from './c.ts'\nexport const b = 1" },
      { path: 'sync/c.ts', source: "import { a } from './a.ts'\nexport type C = 1" },
      { path: 'sync/d.ts', source: "import { a } from './a.ts'" },
    ]
    expect(importCycles(files)).toEqual(['sync/a.ts -> sync/b.ts -> sync/c.ts -> sync/a.ts'])
  })

  it('the checker catches each kind of violation (self-check)', () => {
    const files: SourceFile[] = [
      {
        path: 'app/routes/page.tsx',
        source: `
          import type { Db } from '../../db/client.ts'
          import { search } from '../../api/services/search.ts'
          import { User } from '../../api/contract/index.ts'
          import { localDb } from '../../sync/store.ts'
          import { Hono } from 'hono'
          import { zValidator } from '@hono/zod-validator'
          import { readFile } from 'node:fs/promises'
          import { useState } from 'react'
          // import { evil } from '../../api/services/evil.ts'
          const text = "import x from '../../db/schema/index.ts'"
          export const Page = () => <p>Don't import '../../db/x.ts'</p>
        `,
      },
      {
        path: 'sync/worker.ts',
        source: `
          export * from '../api/routes/chats.ts'
          export type { Profile } from '../api/contract/profile.ts'
          const w = new URL('../app/main.tsx', import.meta.url)
          type T = import('../db/schema/index.ts').Members
          import path = require('path')
        `,
      },
      {
        path: 'sw/sw.ts',
        source: `
          import { precacheAndRoute } from 'workbox-precaching'
          import type { User } from '../api/contract/index.ts'
          import { badgeCount } from '../api/contract/rules/badge.ts'
          import type { PushPayload } from '../api/contract/rules/push.ts'
          import { type PushKind } from '../api/contract/rules/index.ts'
          import type { Profile } from '../api/push/payload.ts'
          const m = await import(\`../sync/store.ts\`)
          import { badge } from './push.ts'
        `,
      },
      {
        path: 'api/routes/x.ts',
        source: `
          import { db } from '../../db/client.ts'
          import { session } from '../../app/session.ts'
          import { Hono } from 'hono'
        `,
      },
      {
        path: 'db/seed/x.ts',
        source: `
          import { hashPassword } from '../../api/auth/password.ts'
          import { key } from '../../sync/search-key.ts'
        `,
      },
      {
        path: 'api/contract/x.ts',
        source: `
          import { z } from 'zod'
          import { Gender } from './common.ts'
          import { ageOn } from '../services/profiles.ts'
          import { Hono } from 'hono'
        `,
      },
      {
        path: 'app/routes/x.tsx',
        source: `
          import { worker } from '../../sync/client.ts'
          import type { SyncEvent } from '../../sync/client.ts'
          import { z } from 'zod'
          import { Settings } from '../../api/contract/index.ts'
          import type { Settings as S } from '../../api/contract/index.ts'
          import { type User, type Profile } from '../../api/contract/index.ts'
          import { SEARCH_PAGE_SIZE } from '../../api/contract/rules/limits.ts'
          import { Tile } from './other/-components/Tile.tsx'
          import { Own } from './x/-components/Own.tsx'
          localDb().kv.put({ key: 'user', value: null })
          db.likes.clear()
          new Set().add(1)
        `,
      },
      {
        path: 'app/data/useX.ts',
        source: `
          import { localDb } from '../../sync/store/store.ts'
          import { syncWorker } from '../../sync/client.ts'
          import { SyncEngine } from '../../sync/engine.ts'
        `,
      },
      {
        path: 'api/likes/routes.ts',
        source: `
          import { likes } from '../../db/schema/index.ts'
          import { eq } from 'drizzle-orm'
          import { setLike } from './likes.ts'
        `,
      },
      {
        path: 'api/likes/likes.ts',
        source: `
          import { likes } from '../../db/schema/index.ts'
          import { eq } from 'drizzle-orm'
        `,
      },
      {
        path: 'api/chats/send.ts',
        source: `
          import { debit } from '../credits/ledger.ts'
          import { messageCost } from '../credits/index.ts'
          import { ApiFailure } from '../http/errors.ts'
          import { rowsOf } from '../shared/rows.ts'
          import { markRead } from './messages.ts'
        `,
      },
      {
        path: 'api/http/session.ts',
        source: `
          import { liveMember } from '../accounts/index.ts'
          import { enqueue } from '../jobs/queue.ts'
        `,
      },
      { path: 'api/chats/send.test.ts', source: "import { credit } from '../credits/ledger.ts'" },
      { path: 'api/admin.ts', source: "import { seedDemo } from '../db/seed/seed.ts'" },
      { path: 'api/start.ts', source: "import { seedDemo } from '../db/seed/seed.ts'" },
      { path: 'api/x.test.ts', source: "import { seedDemo } from '../db/seed/seed.ts'" },
      {
        path: 'sw/push.ts',
        source: "import { get } from 'idb-keyval'\nimport { x } from './config.ts'",
      },
    ]
    const found = checkLayers(files).map((v) => `${v.file} -> ${v.specifier}`)
    expect(found).toEqual(EXPECTED_SELF_CHECK)
  })
})

/**
 * What the self-check must find, one line a rule broken: the older layer
 * rules first, then the app's door to the worker (only app/data/), no zod and
 * only types or rules/ from the contract on the main thread, one route not
 * reaching into another's -components/, no store writes from app/, routes
 * without schema queries, a domain reaching another only through its
 * index.ts, api/'s shared folders importing no domain, db/seed only for
 * start-up and tests, sw/ with workbox only and nothing of the contract but
 * types from rules/ (a value from rules/ or a type from elsewhere is caught).
 * Everything else in those files is allowed and must stay so.
 */
const EXPECTED_SELF_CHECK: string[] = [
  'app/routes/page.tsx -> ../../db/client.ts',
  'app/routes/page.tsx -> ../../api/services/search.ts',
  'app/routes/page.tsx -> ../../api/contract/index.ts',
  'app/routes/page.tsx -> ../../sync/store.ts',
  'app/routes/page.tsx -> hono',
  'app/routes/page.tsx -> @hono/zod-validator',
  'app/routes/page.tsx -> node:fs/promises',
  'sync/worker.ts -> ../api/routes/chats.ts',
  'sync/worker.ts -> ../app/main.tsx',
  'sync/worker.ts -> ../db/schema/index.ts',
  'sync/worker.ts -> path',
  'sw/sw.ts -> ../api/contract/index.ts',
  'sw/sw.ts -> ../api/contract/rules/badge.ts',
  'sw/sw.ts -> ../api/push/payload.ts',
  'sw/sw.ts -> ../sync/store.ts',
  'api/routes/x.ts -> ../../app/session.ts',
  'db/seed/x.ts -> ../../api/auth/password.ts',
  'db/seed/x.ts -> ../../sync/search-key.ts',
  'api/contract/x.ts -> ../services/profiles.ts',
  'api/contract/x.ts -> hono',
  'app/routes/x.tsx -> ../../sync/client.ts',
  'app/routes/x.tsx -> zod',
  'app/routes/x.tsx -> ../../api/contract/index.ts',
  'app/routes/x.tsx -> ./other/-components/Tile.tsx',
  'app/routes/x.tsx -> .put()',
  'app/routes/x.tsx -> .clear()',
  'app/data/useX.ts -> ../../sync/engine.ts',
  'api/likes/routes.ts -> ../../db/schema/index.ts',
  'api/likes/routes.ts -> drizzle-orm',
  'api/chats/send.ts -> ../credits/ledger.ts',
  'api/http/session.ts -> ../accounts/index.ts',
  'api/admin.ts -> ../db/seed/seed.ts',
  'sw/push.ts -> idb-keyval',
]
