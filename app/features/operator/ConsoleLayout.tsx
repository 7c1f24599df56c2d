// The console's frame: who is signed in, the sections of their roles, sign-out.
import { Link, Outlet, useNavigate } from '@tanstack/react-router'
import { m } from '../../../messages/paraglide/messages.js'
import { call, type StaffMe } from '../../data/console-client.ts'
import { roleName, sectionsFor } from './nav.ts'
import './operator.css'

export function ConsoleLayout({ staff }: { staff: StaffMe }) {
  const navigate = useNavigate()
  async function signOut() {
    await call('operatorLogout')
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
