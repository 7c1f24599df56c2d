// Every console page but the sign-in sits below this pathless route: it asks
// who is signed in, and anyone who is not staff gets the site's 404 page (the
// server already answered the page with 404). Sections by role.
import { createFileRoute, Link, notFound, Outlet, useNavigate } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import { consoleCall, type StaffMe } from '../../../data/operator.ts'
import { roleName, sectionsFor } from '../../../features/operator/nav.ts'
import '../../../features/operator/operator.css'

export const Route = createFileRoute('/_default/operator/_console')({
  beforeLoad: async () => {
    const res = await consoleCall<StaffMe>('GET', '/api/operator/me.php')
    if (!res.ok) {
      if (res.error === 'offline') throw new Error(m.error_offline())
      throw notFound()
    }
    return { staff: res.data }
  },
  component: ConsoleLayout,
})

function ConsoleLayout() {
  const { staff } = Route.useRouteContext()
  const navigate = useNavigate()
  async function signOut() {
    await consoleCall('POST', '/api/operator/logout.php')
    await navigate({ to: '/operator/login' })
  }
  return (
    <div className="console">
      <nav className="console__nav" aria-label={m.op_nav_label()}>
        <p className="console__who">
          {m.op_signed_in_as({ name: staff.name })}
          <br />
          {staff.roles.map((r) => roleName(r)).join(', ')}
        </p>
        {sectionsFor(staff.capabilities).map((s) => (
          <Link key={s.to} to={s.to} activeOptions={{ exact: s.to === '/operator' }}>
            {s.label()}
          </Link>
        ))}
        <button type="button" className="button button--quiet" onClick={() => void signOut()}>
          {m.op_sign_out()}
        </button>
      </nav>
      <div className="console__main">
        <Outlet />
      </div>
    </div>
  )
}
