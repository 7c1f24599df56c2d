import {
  type FormLoginFailure,
  isFormLoginFailure,
  samePath,
} from '../../../api/contract/rules/login.ts'

// Apart from the page: the app's route checks the query with it, and the
// route's definition loads with every page (the page itself loads when shown).
export type LoginSearch = { redirect?: string; failed?: FormLoginFailure; until?: string }

/** /login's query (the app's route and the light entry read it alike). */
export const loginSearch = (s: Record<string, unknown>): LoginSearch => ({
  // Only same-site paths: an open redirect would hand phishers a trusted link.
  ...(samePath(s.redirect) ? { redirect: s.redirect as string } : {}),
  // The form sent without the app (before it hydrated) comes back with the
  // server's reason (api/site/form-login.ts).
  ...(isFormLoginFailure(s.failed) ? { failed: s.failed } : {}),
  ...(typeof s.until === 'string' ? { until: s.until } : {}),
})
