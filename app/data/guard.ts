import { redirect } from '@tanstack/react-router'
import { readKv, syncWorker } from '../../sync/client.ts'
import type { session as Session } from './session.ts'

/** beforeLoad of every page that needs a login (spec §2 auth "required"). */
export async function requireLogin({
  context,
  location,
}: {
  context: { session: typeof Session }
  location: { href: string }
}) {
  const user = await context.session.ensureUser()
  if (!user) throw redirect({ to: '/login', search: { redirect: location.href } })
  return { user }
}

/** Spec §2 sign-up step 7 (completion): a member past it has a complete sign-up. */
const SIGNUP_DONE_STEP = 7

/**
 * beforeLoad of pages that do not fit a logged-in member (login, and
 * /account-deleted for an active one): they go to the members area, or to
 * the page a login link asked for. The worker's stored user, not the page's
 * mirror: right after a deletion or logout the mirror may not have heard yet.
 * No network wait.
 */
export async function leaveIfMember({
  context,
  search,
}: {
  context: { session: typeof Session }
  search: { redirect?: string }
}) {
  const user = await context.session.stored()
  if (user) throw redirect({ to: search.redirect ?? '/members' })
}

/**
 * beforeLoad of /signup and /complete-signup: a member whose sign-up is
 * complete goes to the members area. The stored account part first; without
 * one, asked once (offline: the page shows, it finds its own way).
 */
export async function leaveIfSignupComplete({ context }: { context: { session: typeof Session } }) {
  const user = await context.session.load()
  if (!user) return
  let step = (await readKv('account'))?.last_signup_step
  if (step === undefined) {
    const res = await syncWorker().account()
    step = res.ok ? res.value.account.last_signup_step : undefined
  }
  if (step !== undefined && step >= SIGNUP_DONE_STEP) throw redirect({ to: '/members' })
}
