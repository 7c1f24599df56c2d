import { createFileRoute, Link, notFound } from '@tanstack/react-router'
import { m } from '../../../messages/paraglide/messages.js'
import { requireLogin } from '../../data/guard.ts'
import { useChat } from '../../data/useChats.ts'
import { mediaUrl } from '../../ui/media.ts'

const parseChatId = (raw: string): number | null =>
  /^[1-9][0-9]{0,15}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : null

/**
 * Spec §2: /chats/{chatId}, the chat layout. For now it names the other
 * member; messages arrive with the messaging issue.
 */
export const Route = createFileRoute('/chats/$chatId')({
  beforeLoad: async (ctx) => {
    if (parseChatId(ctx.params.chatId) === null) throw notFound()
    return requireLogin(ctx)
  },
  component: Chat,
})

function Chat() {
  const { chatId } = Route.useParams()
  const id = parseChatId(chatId) ?? 0
  // A conversation just started is not in the stored list yet: useChat refreshes it.
  const chat = useChat(id)
  const name = chat?.profile.name
  return (
    <main className="page page--narrow chat-page">
      <header className="chat-page__header">
        {chat?.profile.main_image && (
          <img
            className="chat-list__photo"
            src={mediaUrl(chat.profile.main_image.thumb_filename)}
            alt=""
            width={56}
            height={56}
          />
        )}
        <h1>{name ? m.chat_page_title({ name }) : m.chat_page_title_unknown()}</h1>
      </header>
      <p>{m.chat_page_later()}</p>
      <Link to="/chats">{m.chat_page_back()}</Link>
    </main>
  )
}
