// Mailed tokens as the pages read them from `?token=` (opaque; the server
// decides whether one is good), and the page that follows such a link once.
// Shared by /reset-password/do, /mail-change/do, /login-unlock and /operator/unlock.
import { useEffect, useRef, useState } from 'react'
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

/** What a page behind a mailed link shows: the call running, done (with its value), or failed. */
export type LinkOutcome<T> =
  | { kind: 'busy' }
  | { kind: 'done'; value: T }
  | { kind: 'failed'; text: string }

/**
 * The page behind a mailed link (`?token=`): follows the link once per token
 * (`follow`, its answer shared through `answers`: see `once`) and says what
 * came of it (`outcomeOf`); a link without a token fails with `invalid()`.
 */
export function useTokenLink<A, T>(
  token: string | undefined,
  answers: Map<string, Promise<A>>,
  follow: (token: string) => Promise<A>,
  outcomeOf: (answer: A) => LinkOutcome<T>,
  invalid: () => string,
): LinkOutcome<T> {
  const [outcome, setOutcome] = useState<LinkOutcome<T>>({ kind: 'busy' })
  // The latest callbacks, without making them effect dependencies (callers pass new arrows each render).
  const latest = useRef({ follow, outcomeOf, invalid })
  latest.current = { follow, outcomeOf, invalid }
  useEffect(() => {
    if (!token) {
      setOutcome({ kind: 'failed', text: latest.current.invalid() })
      return
    }
    let live = true
    void once(answers, token, () => latest.current.follow(token)).then((answer) => {
      if (live) setOutcome(latest.current.outcomeOf(answer))
    })
    return () => {
      live = false
    }
  }, [token, answers])
  return outcome
}
