import { createFileRoute } from '@tanstack/react-router'
import { leaveIfMember } from '../../data/guard.ts'
import { LoginPage } from '../../features/account/LoginPage.tsx'
import { loginSearch } from '../../features/account/login-search.ts'

export const Route = createFileRoute('/_default/login')({
  validateSearch: loginSearch,
  // A logged-in member has no business here (spec §2: redirect instead).
  beforeLoad: leaveIfMember,
  component: Login,
})

function Login() {
  return <LoginPage search={Route.useSearch()} />
}
