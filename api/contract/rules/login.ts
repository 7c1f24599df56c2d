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
