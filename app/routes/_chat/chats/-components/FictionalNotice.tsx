import { m } from '../../../../../messages/paraglide/messages.js'

/**
 * The disclosure that the other side of this chat is a fictional profile run
 * by the site (the ACM commitments; also on tile and profile): shown in every
 * chat with one, whatever the operator's fictional_icon setting.
 */
export function FictionalNotice({
  other,
}: {
  other: { name: string; fictional: boolean } | undefined
}) {
  if (!other?.fictional) return null
  return (
    <p className="chat-page__fictional" role="note" data-fictional-notice="">
      {m.chat_fictional({ name: other.name })}
    </p>
  )
}
