import { Link, useNavigate } from '@tanstack/react-router'
import { useEffect } from 'react'
import { m } from '../../messages/paraglide/messages.js'
import { useSession } from '../data/session.ts'
import { worker } from '../data/worker.ts'
import { startOutboxToasts } from './outbox-toasts.ts'
import { showToast } from './toasts.ts'

export function TopNav() {
  const { user } = useSession()
  const navigate = useNavigate()
  // Actions the server refused for good (likes, ...) show as toasts on every page.
  useEffect(startOutboxToasts, [])

  async function logout() {
    const res = await worker().logout()
    // Spec §4: on a logout error the user is still cleared and login shown;
    // the worker ends the session either way (store, pictures, badge).
    if (!res.ok) showToast({ kind: 'info', body: m.logout_failed() })
    await navigate({ to: '/login' })
  }

  return (
    <header className="top-nav">
      <Link to="/" className="brand">
        {m.app_name()}
      </Link>
      <nav aria-label={m.nav_label()}>
        {user ? (
          <>
            <Link to="/members" activeProps={{ 'aria-current': 'page' }}>
              {m.nav_members()}
            </Link>
            <Link to="/chats" activeProps={{ 'aria-current': 'page' }}>
              {m.nav_chats()}
            </Link>
            <Link to="/likes" activeProps={{ 'aria-current': 'page' }}>
              {m.nav_likes()}
            </Link>
            <Link to="/profile" activeProps={{ 'aria-current': 'page' }}>
              {m.nav_profile()}
            </Link>
            <button type="button" className="link-button" onClick={() => void logout()}>
              {m.nav_logout()}
            </button>
          </>
        ) : (
          <>
            <Link to="/login">{m.nav_login()}</Link>
            <Link to="/signup">{m.nav_signup()}</Link>
          </>
        )}
      </nav>
    </header>
  )
}
