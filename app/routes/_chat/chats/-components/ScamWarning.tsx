import { scamWarning } from '../../../../../api/contract/rules/scam.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import type { MessageRow } from '../../../../data/useMessages.ts'

/**
 * A warning for the recipient when the other side asked to pay or to move off
 * the site (a link, a phone number, an e-mail address, a messenger: the rules
 * of api/contract/rules/scam.ts). Payment outranks moving off the site; the
 * newest such message decides. Nothing is shown for the member's own lines.
 */
export function ScamWarning({
  rows,
  me,
}: {
  rows: MessageRow[] | undefined
  me: number | undefined
}) {
  if (!rows || me === undefined) return null
  let warning: 'off_site' | 'payment' | null = null
  for (const row of rows) {
    if (row.from === me) continue
    const w = scamWarning(row.text)
    if (w === 'payment' || (w && !warning)) warning = w
  }
  if (!warning) return null
  return (
    <p className="chat-page__scam" role="note" data-scam-warning={warning}>
      {warning === 'payment' ? m.chat_scam_payment() : m.chat_scam_off_site()}
    </p>
  )
}
