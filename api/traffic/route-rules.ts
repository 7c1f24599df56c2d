// Server route rules (spec §2 "Server route rules may redirect, including to
// external addresses"): an operator lists redirects by path in the
// site_settings row `route_rules`, applied by the server before the app.
// Not a public setting (settings.php never answers it).
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { storedValue } from '../settings/index.ts'

export const ROUTE_RULES_KEY = 'route_rules'

// One rule's shape is in the contract: the console edits the rules with it.
import { RouteRule } from '../contract/operator/sites.ts'

export { RouteRule }

/** The operator's rules; a malformed row is logged and ignored, never a broken site. */
export async function loadRouteRules(db: Db): Promise<RouteRule[]> {
  const value = await storedValue(db, ROUTE_RULES_KEY)
  if (value === undefined) return []
  const parsed = z.array(RouteRule).safeParse(value)
  if (parsed.success) return parsed.data
  console.error('site_settings: route_rules ignored', parsed.error.issues)
  return []
}

/** The first rule that matches `path`, if any. */
export function matchRule(rules: RouteRule[], path: string): RouteRule | undefined {
  return rules.find((r) =>
    r.from.endsWith('/*') ? path.startsWith(r.from.slice(0, -1)) : r.from === path,
  )
}
