import { createFileRoute, Link } from '@tanstack/react-router'
import { MessageCircle } from 'lucide-react'
import { m } from '../../../../../messages/paraglide/messages.js'
import { useChats } from '../../../../data/useChats.ts'
import { formatWhen } from '../../../../ui/format.ts'
import { mediaUrl } from '../../../../ui/media.ts'
import { Photo } from '../../../../ui/Photo.tsx'

export const Route = createFileRoute('/_default/_member/chats/')({
  component: Chats,
})

function Chats() {
  // Opening the list refreshes it; the worker also polls it (spec §9).
  const chats = useChats()

  return (
    <main className="page page--narrow">
      <h1>{m.chats_title()}</h1>
      {chats === undefined && <p>{m.loading()}</p>}
      {chats?.length === 0 && (
        <div className="empty-state">
          <MessageCircle className="empty-state__icon" aria-hidden="true" />
          <p>{m.chats_empty()}</p>
          <Link to="/members" className="button">
            {m.chats_empty_action()}
          </Link>
        </div>
      )}
      <ul className="chat-list" aria-label={m.chats_title()}>
        {chats?.map((c) => (
          <li key={c.id} className="chat-list__item">
            {c.profile.main_image ? (
              <Photo
                className="chat-list__photo"
                src={mediaUrl(c.profile.main_image.thumb_filename)}
                alt={m.tile_photo_alt({ name: c.profile.name })}
                width={56}
                height={56}
              />
            ) : (
              <span className="chat-list__photo" aria-hidden="true" />
            )}
            <div className="chat-list__text">
              <h2 className="chat-list__name">
                <Link
                  to="/chats/$chatId"
                  params={{ chatId: String(c.id) }}
                  className="chat-list__link"
                >
                  {c.profile.name}
                </Link>
              </h2>
              <p className="chat-list__last">
                {c.last_message
                  ? c.last_message.from_me
                    ? m.chats_you({ text: c.last_message.body })
                    : c.last_message.body
                  : m.chats_no_messages()}
              </p>
              {c.last_message && (
                <time className="chat-list__time" dateTime={c.last_message.created_at}>
                  {formatWhen(c.last_message.created_at)}
                </time>
              )}
            </div>
            {c.num_unread_messages > 0 && (
              <span className="badge">{m.chats_unread({ count: c.num_unread_messages })}</span>
            )}
          </li>
        ))}
      </ul>
    </main>
  )
}
