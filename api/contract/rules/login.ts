// The login page's form sent without the app (api/site/form-login.ts answers
// it; app/features/account/LoginPage.tsx shows the outcome).

/** What the login page shows for `?failed=` after a form login the server refused. */
export const FORM_LOGIN_FAILURES = ['invalid', 'suspended', 'rate_limited', 'error'] as const
export type FormLoginFailure = (typeof FORM_LOGIN_FAILURES)[number]

export const isFormLoginFailure = (value: unknown): value is FormLoginFailure =>
  (FORM_LOGIN_FAILURES as readonly unknown[]).includes(value)

// A stand-in origin to resolve a path against: whatever resolves elsewhere
// would take the browser elsewhere too.
const HERE = 'http://here.invalid'

/**
 * Only a path of this site: an open redirect would hand phishers a trusted
 * link. Browsers drop tabs and newlines from a URL (`/\t/evil` is `//evil`),
 * read a backslash as a slash, trim spaces and control characters, and take
 * `//` for another host, so anything that could turn into one is refused
 * rather than cleaned: exactly one `/` first, printable ASCII only (the app's
 * own paths are percent-encoded), no backslash, no encoded control character
 * anywhere, no encoded slash, backslash or percent in the path, and a path
 * that, resolved the way a browser does (`/..//evil` is `//evil`), stays on
 * this origin and does not start with `//`.
 */
export const samePath = (to: unknown): string | null => {
  if (typeof to !== 'string') return null
  if (!/^\/(?![/\\])[\x21-\x7e]*$/.test(to) || to.includes('\\')) return null
  // %00-%1F, %7F and the C1 controls in UTF-8 (%C2%80-%C2%9F).
  if (/%(?:[01][0-9a-f]|7f|c2%[89][0-9a-f])/i.test(to)) return null
  const path = to.split(/[?#]/, 1)[0] ?? ''
  if (/%(?:2f|5c|25)/i.test(path)) return null
  let url: URL
  try {
    url = new URL(to, HERE)
  } catch {
    return null
  }
  return url.origin === HERE && !url.pathname.startsWith('//') ? to : null
}

/**
 * Set and cleared by the server with the session cookie (api/http/session.ts),
 * readable by the page (not a secret: it says only that a session cookie was
 * set). The session cookie is httpOnly, so without it a page whose store has
 * no member yet (a login by a plain form post, before the app had stored the
 * member) could not tell a member from a guest; app/data/session.ts asks the
 * server then.
 */
export const SIGNED_IN_COOKIE = 'signed_in'
