// Which paths are pages of the app (spec §2: unknown paths give 404). The
// patterns are the router's full paths as the build wrote them to
// dist/routes.json (tools/routes-vite-plugin.ts): `$memberId` matches one
// segment, `{-$param}` zero or one, a trailing `$` (splat) any rest.
import { existsSync, readFileSync } from 'node:fs'

export type RouteTable = (pathname: string) => boolean

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function segmentRegex(segment: string): string {
  if (segment === '$') return '(?:/.*)?'
  if (/^\{-\$[^/]+\}$/.test(segment)) return '(?:/[^/]+)?'
  if (/^\$[^/]+$/.test(segment)) return '/[^/]+'
  return `/${escapeRegex(segment)}`
}

/** One regular expression per pattern; a trailing slash is the same page. */
export function compileRoutes(patterns: readonly string[]): RouteTable {
  const regexes = patterns.map((p) => {
    const segments = p.split('/').filter(Boolean)
    return new RegExp(`^${segments.map(segmentRegex).join('')}/?$`)
  })
  return (pathname) => {
    let path: string
    try {
      path = decodeURI(pathname)
    } catch {
      return false
    }
    return regexes.some((r) => r.test(path))
  }
}

/**
 * The route table of a build, or null when the build has none (an older
 * build): then every path gets the app, as before.
 */
export function loadRouteTable(file: string): RouteTable | null {
  if (!existsSync(file)) return null
  const patterns = JSON.parse(readFileSync(file, 'utf8')) as unknown
  if (!Array.isArray(patterns) || !patterns.every((p) => typeof p === 'string')) return null
  return compileRoutes(patterns)
}
