import { createFileRoute, notFound, useNavigate } from '@tanstack/react-router'
import { useRef, useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { useSession } from '../../../data/session.ts'
import { useChat } from '../../../data/useChats.ts'
import { usePrivacy } from '../../../data/useLive.ts'
import { useCredits, useMessages } from '../../../data/useMessages.ts'
import { worker } from '../../../data/worker.ts'
import { ReportDialog } from '../../../ui/ReportDialog.tsx'
import { TypingIndicator } from '../../../ui/TypingIndicator.tsx'
import { useOnline } from '../../../ui/useOnline.ts'
import { ChatHeader } from './-components/ChatHeader.tsx'
import { Composer } from './-components/Composer.tsx'
import { FictionalNotice } from './-components/FictionalNotice.tsx'
import { MessageList } from './-components/MessageList.tsx'
import { ScamWarning } from './-components/ScamWarning.tsx'
import { useMessageScroll, useNewDivider } from './-components/useMessageScroll.ts'

const parseChatId = (raw: string): number | null =>
  /^[1-9][0-9]{0,15}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : null

/** Spec §2: /chats/{chatId} in the chat layout: one conversation, paid per message. */
export const Route = createFileRoute('/_chat/chats/$chatId')({
  beforeLoad: async (ctx) => {
    if (parseChatId(ctx.params.chatId) === null) throw notFound()
  },
  component: Chat,
})

function Chat() {
  const { chatId } = Route.useParams()
  // One instance per conversation: the opening's unread count, divider and
  // scroll place start afresh when another chat opens in its place.
  return <ChatView key={chatId} chatId={chatId} />
}

function ChatView({ chatId }: { chatId: string }) {
  const id = parseChatId(chatId) ?? 0
  const { user } = useSession()
  // A conversation just started is not in the stored list yet: useChat refreshes it.
  const chat = useChat(id)
  const { rows, pulledUpTo } = useMessages(id)
  const credits = useCredits()
  const online = useOnline()
  // The report dialog, for the member or for one of their messages (a photo).
  const [reporting, setReporting] = useState<false | { message?: number }>(false)
  const privacy = usePrivacy()
  const me = user?.profile.id
  const other = chat?.profile
  const count = rows?.length ?? 0
  // The unread count as the chat opened (opening marks it read at once).
  const unread = useRef<number | undefined>(undefined)
  if (unread.current === undefined && chat) unread.current = chat.num_unread_messages
  const divider = useNewDivider(rows, me, unread.current, pulledUpTo)
  const scroll = useMessageScroll(id, count, divider)
  const { alert, remove, block } = useChatActions(id, other)

  return (
    <main className="page page--narrow chat-page">
      <ChatHeader
        other={other}
        onReport={() => setReporting({})}
        onBlock={() => void block()}
        onRemove={() => void remove()}
      />
      <FictionalNotice other={other} />
      <ScamWarning rows={rows} me={me} />
      {alert && (
        <p role="alert" className="form__error">
          {alert}
        </p>
      )}
      <MessageList
        listRef={scroll.list}
        onScroll={scroll.onScroll}
        onMemberScroll={scroll.onMemberScroll}
        pill={scroll.pill}
        onPill={scroll.toEnd}
        divider={divider}
        rows={rows}
        me={me}
        online={online}
        showOlder={scroll.older === 'idle' && count >= 50}
        onOlder={() => void scroll.loadOlder()}
        blur={privacy?.blur_photos !== false}
        onReport={(message) => setReporting({ message })}
      />
      {other && <TypingIndicator conversation={id} name={other.name} />}
      <Composer
        conversation={id}
        credits={credits?.credits}
        cost={credits?.message_cost}
        photoCost={credits?.photo_cost}
        value={credits?.credit_value ?? null}
        begun={rows?.some((r) => r.id !== null) === true}
        onSent={scroll.toEnd}
      />
      {reporting && other && (
        <ReportDialog
          profile={other}
          message={reporting.message}
          onClose={() => setReporting(false)}
        />
      )}
    </main>
  )
}

/** Deleting the chat and blocking the member: each asked first, then back to the chats. */
function useChatActions(id: number, other: { id: number; name: string } | undefined) {
  const navigate = useNavigate()
  const [alert, setAlert] = useState<string | null>(null)

  async function remove() {
    if (!window.confirm(m.chat_delete_confirm())) return
    const res = await worker().deleteChat(id)
    // Spec §8: a failed delete is told; the list reloads either way.
    if (!res.ok) setAlert(m.chat_delete_failed())
    else await navigate({ to: '/chats' })
  }

  async function block() {
    if (!other || !window.confirm(m.chat_block_confirm({ name: other.name }))) return
    const res = await worker().block(other.id)
    if (!res.ok) setAlert(m.error_generic())
    else await navigate({ to: '/chats' })
  }

  return { alert, remove, block }
}
