// Step 7 (spec §2): the account email, a spam-folder hint, a link to change
// the email, the way into the members area and, for Gmail (mailprovider 2),
// a link that searches the mailbox for the mail.
import { m } from '../../../../messages/paraglide/messages.js'
import { AppLink } from '../../../ui/AppLink.tsx'
import { readMatchAnswers } from '../../landers/match-answers.ts'

/** Spec §3: mailprovider 2 means Gmail. */
export const MAILPROVIDER_GMAIL = 2

/** Gmail's search for the sender, in every folder (spam included). */
export const gmailSearchUrl = (sender: string) =>
  `https://mail.google.com/mail/u/0/#search/${encodeURIComponent(`from:${sender} in:anywhere`)}`

export function DoneStep({
  email,
  mailprovider,
  sender,
}: {
  email: string
  mailprovider: number
  sender: string
}) {
  return (
    <div className="step-body">
      <p>{m.signup_done_body({ email })}</p>
      <p>{m.signup_done_spam()}</p>
      {mailprovider === MAILPROVIDER_GMAIL && (
        <p>
          <a href={gmailSearchUrl(sender)} target="_blank" rel="noopener noreferrer">
            {m.signup_done_gmail()}
          </a>
        </p>
      )}
      <p>
        <AppLink href="/profile#email">{m.signup_done_change_email()}</AppLink>
      </p>
      {/* After the match finder, its answers' matches come first (/signup-matches). */}
      <AppLink href={readMatchAnswers() ? '/signup-matches' : '/members'} className="button">
        {m.signup_done_members()}
      </AppLink>
    </div>
  )
}
