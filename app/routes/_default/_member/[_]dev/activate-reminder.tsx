// /_dev/activate-reminder: the reminder a member whose address is not yet
// confirmed gets, shown for review.
import { createFileRoute, Link } from '@tanstack/react-router'
import { m } from '../../../../../messages/paraglide/messages.js'

export const Route = createFileRoute('/_default/_member/_dev/activate-reminder')({
  component: DevActivateReminder,
})

function DevActivateReminder() {
  return (
    <main className="page page--narrow">
      <h1>{m.dev_activate_reminder_title()}</h1>
      <section className="offline-banner" role="status">
        <p>{m.dev_activate_reminder_body()}</p>
        <Link to="/profile">{m.error_profile_edit()}</Link>
      </section>
    </main>
  )
}
