// Throw-away mail domains, refused at sign-up (docs/accounts.md, "Throw-away
// addresses"). The list is the npm package disposable-email-domains: a
// maintained list (new throw-away services appear every week), updated with
// the other dependencies rather than kept by hand here.
import { createRequire } from 'node:module'
import { ApiFailure } from '../http/errors.ts'

const load = createRequire(import.meta.url)
/** Exact domains (index.json, the package's main file). */
const exact = new Set<string>(load('disposable-email-domains') as string[])
/** Domains whose every subdomain is throw-away too. */
const wildcard = new Set<string>(load('disposable-email-domains/wildcard.json') as string[])

/** Whether the address's domain (or, for wildcard entries, a parent of it) is a throw-away one. */
export function isDisposableEmail(email: string): boolean {
  const at = email.lastIndexOf('@')
  if (at < 0) return false
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
  if (exact.has(domain)) return true
  const labels = domain.split('.')
  for (let i = 0; i < labels.length - 1; i++) {
    if (wildcard.has(labels.slice(i).join('.'))) return true
  }
  return false
}

/**
 * 422 `disposable_email` at field `email`. Decided from the address alone,
 * before any account lookup, so the answer says nothing about whether an
 * account exists.
 */
export function refuseDisposable(email: string): void {
  if (isDisposableEmail(email)) {
    throw new ApiFailure(422, 'disposable_email', 'email', 'email: throw-away mail domain')
  }
}
