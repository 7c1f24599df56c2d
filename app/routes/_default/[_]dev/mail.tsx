// /_dev/mail (a developer page, spec §2 /_dev): the mails the site stored
// instead of sending them (no SMTP_URL), newest first, with their links.
import { createFileRoute, Link } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import { useSession } from '../../../data/session.ts'
import { worker } from '../../../data/worker.ts'
import { useWorker } from '../../../features/account/forms/use-worker.ts'
import { formatDateTime } from '../../../ui/format.ts'

// Open to guests, unlike the spec's other /_dev pages, but what it lists is
// the server's to say (api/mail/routes.ts): a signed-in member sees the mails
// sent to them (no reset links); every stored mail, to anyone, only on a
// development site started with DEV_MAIL=all, where the developer follows
// reset links while logged out. A guest elsewhere is asked to log in.
export const Route = createFileRoute('/_default/_dev/mail')({ component: DevMail })

/** Links in a plain-text mail, so a developer can follow them from here. */
const links = (text: string) => [...new Set(text.match(/https?:\/\/[^\s<>"]+/g) ?? [])]

function DevMail() {
  const mails = useWorker(() => worker().devMails())
  const { user } = useSession()
  return (
    <main className="page">
      <h1>{m.dev_mail_title()}</h1>
      <p>{m.dev_mail_intro()}</p>
      {mails === undefined && <p role="status">{m.loading()}</p>}
      {mails === null && user && <p>{m.dev_mail_unavailable()}</p>}
      {mails === null && !user && (
        <p>
          {m.dev_mail_login()}{' '}
          <Link to="/login" search={{ redirect: '/_dev/mail' }}>
            {m.nav_login()}
          </Link>
        </p>
      )}
      {mails && mails.mails.length === 0 && <p>{m.dev_mail_empty()}</p>}
      {mails && mails.mails.length > 0 && (
        <ol className="dev-mail">
          {mails.mails.map((mail) => (
            <li key={mail.id}>
              <article aria-labelledby={`mail-${mail.id}`}>
                <h2 id={`mail-${mail.id}`}>{mail.subject}</h2>
                <p>
                  {m.dev_mail_to({ to: mail.to })} ·{' '}
                  <time dateTime={mail.created_at}>{formatDateTime(mail.created_at)}</time> ·{' '}
                  {mail.kind}
                </p>
                <ul>
                  {links(mail.text).map((href) => (
                    <li key={href}>
                      <a href={href}>{href}</a>
                    </li>
                  ))}
                </ul>
                <pre className="dev-mail__text">{mail.text}</pre>
              </article>
            </li>
          ))}
        </ol>
      )}
    </main>
  )
}
