// Which first-load chunk a module goes into, for a build with one entry: the
// app (app/main.tsx, vite.config.ts) or the light entry's copies per language
// (app/lander.tsx, tools/light-vite-plugin.ts). Everything an entry imports
// statically loads on its first visit anyway, so one file compresses better
// and costs one request instead of some thirty small ones. Route chunks and
// other dynamic imports stay apart (rolldown splits them as it does by itself).
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
 * Every module `entry` imports statically, transitively;
 * barrel leaves only where named.
 */
function closure(entries: readonly string[], ctx: Context): Set<string> {
  const seen = new Set<string>()
  const named = new Set<string>()
  const leaves: string[] = []
  const stack = [...entries]
  while (stack.length > 0) {
    const id = stack.pop()!
    if (seen.has(id)) continue
    if (leafKey(id)) {
      leaves.push(id)
      continue
    }
    seen.add(id)
    const info = ctx.getModuleInfo(id)
    const code = info?.code ?? sourceOf(id)
    if (code) namedLeaves(code, named)
    for (const next of info?.importedIds ?? []) stack.push(next)
  }
  for (const id of leaves) {
    if (named.has(leafKey(id)!)) seen.add(id)
  }
  return seen
}

/**
 * rolldown `codeSplitting.groups`: what `entry` imports statically, in one
 * file named `name`; with `with`, also those modules (route chunks the
 * entry's first page always loads) and what they import statically, so a page's first load
 * is that one file and the page's own chunks rather than a dozen small shared
 * ones, each with its own request and its own gzip overhead.
 */
export function singleEntryChunk(
  entry: string,
  name: string,
  { with: also = [] }: { with?: readonly string[] } = {},
): CodeSplittingGroup[] {
  let part: { ctx: Context; ids: Set<string> } | undefined
  return [
    {
      name: (id, ctx) => {
        if (part?.ctx !== ctx) part = { ctx, ids: closure([entry, ...also], ctx) }
        return part.ids.has(id) ? name : null
      },
      debugName: name,
      includeDependenciesRecursively: false,
    },
  ]
}
