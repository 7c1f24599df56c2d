// Which first-load chunk a module of the app goes into, with two entries:
// the app (app/main.tsx) and the landers' light entry (app/lander.tsx).
// Everything an entry imports statically loads on its first visit anyway,
// so one file per entry compresses better and costs one request instead of
// some thirty small ones; with two entries, what both import (React, the
// root frame, the worker client) is one shared file, so the landers' entry
// never loads the router and the app never loads the lander pages first.
// Route chunks stay apart (rolldown splits them as it does by itself).
import { existsSync, readFileSync } from 'node:fs'
import type { CodeSplittingGroup, CodeSplittingNameFunction } from 'rolldown'

type Context = Parameters<CodeSplittingNameFunction>[1]

/**
 * Modules reached through a barrel that re-exports hundreds of them (the
 * Paraglide messages behind `m`, the lucide icons): an entry reaches one
 * only where its code names it (`m.nav_login(`, `import { Heart } from
 * 'lucide-react'`), not by importing the barrel.
 */
const MESSAGE = /[\\/]messages[\\/]paraglide[\\/]messages[\\/]([a-z0-9][a-z0-9_]*)\.js$/i
const ICON = /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]([a-z0-9-]+)\.mjs$/

const kebab = (pascal: string) =>
  pascal
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase()

/** The messages and icons a module's code names. */
function namedLeaves(code: string, into: Set<string>) {
  for (const match of code.matchAll(/\bm\.([A-Za-z0-9_]+)\b/g)) into.add(`m:${match[1]}`)
  for (const match of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']lucide-react["']/g)) {
    for (const name of match[1]!.split(',')) {
      const imported = name
        .trim()
        .split(/\s+as\s+/)[0]
        ?.replace(/Icon$/, '')
      if (imported) into.add(`icon:${kebab(imported)}`)
    }
  }
}

const leafKey = (id: string) => {
  const message = MESSAGE.exec(id)?.[1]
  if (message) return `m:${message}`
  const icon = ICON.exec(id)?.[1]
  return icon ? `icon:${icon}` : null
}

/** The module's source, where the chunking pass no longer holds its code. */
function sourceOf(id: string): string | null {
  if (!/\.(tsx?|jsx?|mjs)$/.test(id) || !existsSync(id)) return null
  return readFileSync(id, 'utf8')
}

/**
 * Every module `entry` imports statically, transitively (with `dynamic`,
 * what it imports dynamically too, except the modules `skip` matches);
 * barrel leaves only where named.
 */
function closure(
  entry: string,
  ctx: Context,
  { dynamic = false, skip }: { dynamic?: boolean; skip?: RegExp } = {},
): Set<string> {
  const seen = new Set<string>()
  const named = new Set<string>()
  const leaves: string[] = []
  const stack = [entry]
  while (stack.length > 0) {
    const id = stack.pop()!
    if (seen.has(id) || skip?.test(id)) continue
    if (leafKey(id)) {
      leaves.push(id)
      continue
    }
    seen.add(id)
    const info = ctx.getModuleInfo(id)
    const code = info?.code ?? sourceOf(id)
    if (code) namedLeaves(code, named)
    for (const next of info?.importedIds ?? []) stack.push(next)
    if (dynamic) for (const next of info?.dynamicallyImportedIds ?? []) stack.push(next)
  }
  for (const id of leaves) {
    if (named.has(leafKey(id)!)) seen.add(id)
  }
  return seen
}

type Part = 'shared' | 'lander' | 'shell'

/**
 * rolldown `codeSplitting.groups` for the entries' static imports:
 * - `shell`: what only the app's first load needs;
 * - `lander`: what only the landers' entry needs, and otherwise only the
 *   app's own lander routes (`landerRoutes`: the lander pages, their texts);
 * - `shared`: what both first loads need, and what the landers' entry needs
 *   that the app's other pages use too (a photo's address, a tile's texts),
 *   so that no page of the app loads the `lander` file for it.
 * Each module goes where this puts it, not where an importer's group would
 * pull it (`includeDependenciesRecursively: false`): what a module of a part
 * imports statically is in the same part or `shared`.
 */
export function entryChunks(entries: {
  app: string
  lander: string
  landerRoutes: RegExp
}): CodeSplittingGroup[] {
  let parts:
    | { ctx: Context; app: Set<string>; appAll: Set<string>; lander: Set<string> }
    | undefined
  const partOf = (id: string, ctx: Context): Part | null => {
    if (parts?.ctx !== ctx) {
      parts = {
        ctx,
        app: closure(entries.app, ctx),
        appAll: closure(entries.app, ctx, { dynamic: true, skip: entries.landerRoutes }),
        lander: closure(entries.lander, ctx),
      }
    }
    if (parts.lander.has(id)) return parts.appAll.has(id) ? 'shared' : 'lander'
    return parts.app.has(id) ? 'shell' : null
  }
  const names: Part[] = ['shared', 'lander', 'shell']
  return names.map((part) => ({
    name: (id, ctx) => (partOf(id, ctx) === part ? part : null),
    debugName: part,
    includeDependenciesRecursively: false,
  }))
}
