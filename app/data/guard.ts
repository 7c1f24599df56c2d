import { redirect } from '@tanstack/react-router'
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
