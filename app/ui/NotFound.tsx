import { Link, useLocation } from '@tanstack/react-router'
import { m } from '../../messages/paraglide/messages.js'

/** Spec §8: 404 "Page Not Found: {path}". */
export function NotFound() {
  const { pathname } = useLocation()
  return (
    <main className="page page--narrow">
      <h1>{m.not_found_title()}</h1>
      <p>{m.not_found_body({ path: pathname })}</p>
      <Link to="/">{m.not_found_home()}</Link>
    </main>
  )
}
