// Mailed tokens as the pages read them from `?token=` (opaque; the server
// decides whether one is good). Shared by /reset-password/do and /mail-change/do.
export type TokenSearch = { token?: string }

/** The contract's MailToken limit: longer is no token of ours. */
export const TOKEN_MAX = 128

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
