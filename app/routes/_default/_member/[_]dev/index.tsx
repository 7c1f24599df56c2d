import { createFileRoute, Link } from '@tanstack/react-router'
import { m } from '../../../../../messages/paraglide/messages.js'

export const Route = createFileRoute('/_default/_member/_dev/')({ component: DevIndex })

function DevIndex() {
  return (
    <main className="page page--narrow">
      <h1>{m.dev_index_title()}</h1>
      <ul>
        <li>
          <Link to="/_dev/dialogs">{m.dev_dialogs_title()}</Link>
        </li>
        <li>
          <Link to="/_dev/top-nav">{m.dev_top_nav_title()}</Link>
        </li>
        <li>
          <Link to="/_dev/activate-reminder">{m.dev_activate_reminder_title()}</Link>
        </li>
        <li>
          <Link to="/_dev/mail">{m.dev_mail_title()}</Link>
        </li>
      </ul>
    </main>
  )
}
