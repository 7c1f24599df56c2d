// /account-deleted (spec §2, optional auth): after DELETE /api/user.php.
import { createFileRoute, Link } from '@tanstack/react-router'
import { m } from '../../messages/paraglide/messages.js'

export const Route = createFileRoute('/account-deleted')({ component: AccountDeleted })

function AccountDeleted() {
  return (
    <main className="page page--narrow">
      <h1>{m.account_deleted_title()}</h1>
      <p>{m.account_deleted_body()}</p>
      <Link to="/">{m.account_deleted_home()}</Link>
    </main>
  )
}
