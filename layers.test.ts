// The layer rules of ARCHITECTURE.md ("Folders and what they may import"),
// checked on every .ts/.tsx file of the repository. Imports are read from the
// syntax tree (oxc, through Vite), so a comment or a string that looks like an
// import never counts, and type-only imports count like any other: they couple
// the layers all the same.
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

/**
 * Every module a file refers to: static imports (type-only too), re-exports,
 * dynamic import(), import types, `import x = require()`, and
 * `new URL('...', import.meta.url)` (how workers and assets are referenced).
 */
function importsOf(file: SourceFile): string[] {
  const { program, errors } = parseSync(file.path, file.source)
  if (errors.length > 0) throw new Error(`${file.path}: ${errors[0]?.message}`)
  const found: string[] = []
  const visit = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child)
      return
    }
    if (typeof node !== 'object' || node === null) return
    const n = node as Node
    let specifier: string | undefined
    switch (n.type) {
      case 'ImportDeclaration':
      case 'ExportAllDeclaration':
      case 'ExportNamedDeclaration':
      case 'ImportExpression':
      case 'TSImportType':
        specifier = stringValue(n.source)
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
    }
    if (specifier !== undefined) found.push(specifier)
    for (const [key, value] of Object.entries(n)) {
      if (key !== 'type' && typeof value === 'object') visit(value)
    }
  }
  visit(program)
  return found
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
 * the server only through api/contract; sw/ stands alone; db/ stays below api/
 * (the seed gets its password hash injected for that reason).
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

function violationsOf(file: SourceFile, specifier: string): Violation[] {
  const from = layerOf(file.path)
  const v = (rule: string): Violation[] => [{ file: file.path, specifier, rule }]
  const bare = !specifier.startsWith('.') && !specifier.startsWith('/')
  if (bare) {
    const name = packageName(specifier)
    if (from === 'contract' && name !== 'zod') return v('api/contract imports zod only')
    if ((from === 'app' || from === 'sync') && isServerPackage(name)) {
      return v(`${from}/ must not load the server package ${name}`)
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
  if (FORBIDDEN[from].includes(to)) {
    return v(`${from}/ must not import ${to === 'contract' ? 'api/contract' : `${to}/`}`)
  }
  return []
}

/** Every layer violation in `files`. */
function checkLayers(files: SourceFile[]): Violation[] {
  return files.flatMap((file) => importsOf(file).flatMap((s) => violationsOf(file, s)))
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
          const text = "import x from '../../db/schema.ts'"
          export const Page = () => <p>Don't import '../../db/x.ts'</p>
        `,
      },
      {
        path: 'sync/worker.ts',
        source: `
          export * from '../api/routes/chats.ts'
          export type { Profile } from '../api/contract/profile.ts'
          const w = new URL('../app/main.tsx', import.meta.url)
          type T = import('../db/schema.ts').Members
          import path = require('path')
        `,
      },
      {
        path: 'sw/sw.ts',
        source: `
          import { precacheAndRoute } from 'workbox-precaching'
          import type { User } from '../api/contract/index.ts'
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
    ]
    expect(checkLayers(files).map((v) => `${v.file} -> ${v.specifier}`)).toEqual([
      'app/routes/page.tsx -> ../../db/client.ts',
      'app/routes/page.tsx -> ../../api/services/search.ts',
      'app/routes/page.tsx -> hono',
      'app/routes/page.tsx -> @hono/zod-validator',
      'app/routes/page.tsx -> node:fs/promises',
      'sync/worker.ts -> ../api/routes/chats.ts',
      'sync/worker.ts -> ../app/main.tsx',
      'sync/worker.ts -> ../db/schema.ts',
      'sync/worker.ts -> path',
      'sw/sw.ts -> ../api/contract/index.ts',
      'sw/sw.ts -> ../sync/store.ts',
      'api/routes/x.ts -> ../../app/session.ts',
      'db/seed/x.ts -> ../../api/auth/password.ts',
      'db/seed/x.ts -> ../../sync/search-key.ts',
      'api/contract/x.ts -> ../services/profiles.ts',
      'api/contract/x.ts -> hono',
    ])
  })
})
