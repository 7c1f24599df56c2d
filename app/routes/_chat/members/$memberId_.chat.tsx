import { createFileRoute, notFound, redirect } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import { worker } from '../../../data/worker.ts'
import { parseMemberId } from '../../../ui/member-id.ts'

/**
 * Spec §2: /members/{memberId}/chat opens the conversation with that member
 * (made on first use) in the chat layout: it redirects to /chats/{chatId}.
 */
export const Route = createFileRoute('/_chat/members/$memberId_/chat')({
  beforeLoad: async (ctx) => {
    const memberId = parseMemberId(ctx.params.memberId)
    if (memberId === null) throw notFound()
    const res = await worker().startChat(memberId)
    if (!res.ok) throw notFound()
    throw redirect({ to: '/chats/$chatId', params: { chatId: String(res.value.id) } })
  },
  component: () => <p role="status">{m.loading()}</p>,
})
