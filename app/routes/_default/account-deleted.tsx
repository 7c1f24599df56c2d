// /account-deleted (spec §2, optional auth): after DELETE /api/user.php.
import { createFileRoute, Link } from '@tanstack/react-router'
import { m } from '../../../messages/paraglide/messages.js'
import { leaveIfMember } from '../../data/guard.ts'

// An active (logged-in) member goes to the members area instead.
export const Route = createFileRoute('/_default/account-deleted')({
  beforeLoad: ({ context }) => leaveIfMember({ context, search: {} }),
  component: AccountDeleted,
})

function AccountDeleted() {
  return (
    <main className="page page--narrow">
      <h1>{m.account_deleted_title()}</h1>
      <p>{m.account_deleted_body()}</p>
      <Link to="/">{m.account_deleted_home()}</Link>
    </main>
  )
}
