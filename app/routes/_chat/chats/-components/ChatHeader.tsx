import { Link } from '@tanstack/react-router'
import type { Profile } from '../../../../../api/contract/index.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { LastActive } from '../../../../ui/LastActive.tsx'
import { mediaUrl } from '../../../../ui/media.ts'
import { VerifiedMark } from '../../../../ui/VerifiedMark.tsx'

/** Who the chat is with (as far as the chat knows yet). */
export interface ChatPartner {
  id: number
  name: string
  main_image?: { thumb_filename: string } | null
  last_active?: Profile['last_active']
  verified?: boolean
}

/** The chat's head: the other member's photo, name and profile link, and what can be done. */
export function ChatHeader({
  other,
  onReport,
  onBlock,
  onRemove,
}: {
  other: ChatPartner | undefined
  onReport: () => void
  onBlock: () => void
  onRemove: () => void
}) {
  return (
    <header className="chat-page__header">
      {other?.main_image ? (
        <img
          className="chat-list__photo"
          src={mediaUrl(other.main_image.thumb_filename)}
          alt=""
          width={48}
          height={48}
        />
      ) : (
        <span className="chat-list__photo" aria-hidden="true" />
      )}
      <div className="chat-page__who">
        <h1>
          {other ? m.chat_page_title({ name: other.name }) : m.chat_page_title_unknown()}
          <VerifiedMark verified={other?.verified} />
        </h1>
        <LastActive lastActive={other?.last_active} />
        {other && (
          <Link to="/members/$memberId" params={{ memberId: String(other.id) }}>
            {m.chat_profile_link()}
          </Link>
        )}
      </div>
      <div className="chat-page__actions">
        <button type="button" className="button button--quiet" onClick={onReport}>
          {m.chat_report()}
        </button>
        {/* Blocking names the member: it waits until the chat knows who that is. */}
        <button type="button" className="button button--quiet" disabled={!other} onClick={onBlock}>
          {m.chat_block()}
        </button>
        <button type="button" className="button button--quiet" onClick={onRemove}>
          {m.chat_delete()}
        </button>
      </div>
    </header>
  )
}
