// Mailed tokens as the pages read them from `?token=` (opaque; the server
// decides whether one is good). Shared by /reset-password/do and /mail-change/do.
import { TOKEN_MAX } from '../../../api/contract/rules/limits.ts'

export type TokenSearch = { token?: string }

export const tokenSearch = (s: Record<string, unknown>): TokenSearch =>
  typeof s.token === 'string' && s.token.length > 0 && s.token.length <= TOKEN_MAX
    ? { token: s.token }
    : {}

/**
 * A token is single-use: a second request (React StrictMode runs effects
 * twice in development; a re-render may too) must share the first answer.
 */
export function once<T>(cache: Map<string, Promise<T>>, token: string, run: () => Promise<T>) {
  let p = cache.get(token)
  if (!p) {
    p = run()
    cache.set(token, p)
  }
  return p
}
