// The login page's form sent without the app (api/site/form-login.ts answers
// it; app/features/account/LoginPage.tsx shows the outcome).

/** What the login page shows for `?failed=` after a form login the server refused. */
export const FORM_LOGIN_FAILURES = ['invalid', 'suspended', 'rate_limited', 'error'] as const
export type FormLoginFailure = (typeof FORM_LOGIN_FAILURES)[number]

export const isFormLoginFailure = (value: unknown): value is FormLoginFailure =>
  (FORM_LOGIN_FAILURES as readonly unknown[]).includes(value)

/** Only a path of this site: an open redirect would hand phishers a trusted link. */
export const samePath = (to: unknown): string | null =>
  typeof to === 'string' && to.startsWith('/') && !to.startsWith('//') && !to.includes('\\')
    ? to
    : null

/**
 * Set and cleared by the server with the session cookie (api/http/session.ts),
 * readable by the page (not a secret: it says only that a session cookie was
 * set). The session cookie is httpOnly, so without it a page whose store has
 * no member yet (a login by a plain form post, before the app had stored the
 * member) could not tell a member from a guest; app/data/session.ts asks the
 * server then.
 */
export const SIGNED_IN_COOKIE = 'signed_in'
