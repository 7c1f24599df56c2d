import { MessageCircle } from 'lucide-react'
import { useState } from 'react'
import { m } from '../../messages/paraglide/messages.js'
import { worker } from '../data/worker.ts'
import { useLook } from '../theme/site.ts'
import { useAppNavigate } from './AppLink.tsx'
import { showFailureToast } from './failure-toast.ts'

/**
 * Starts (or reopens) the conversation with a member: GET /api/chat.php
 * through the worker, then /chats/{id} (spec §7). Spec §8: on failure a
 * danger notice titled Error.
 */
export function ChatButton({
  profile,
  className = '',
}: {
  profile: { id: number; name: string }
  className?: string
}) {
  const navigate = useAppNavigate()
  const [busy, setBusy] = useState(false)
  // Spec §9 template flag: a site without chat shows no chat buttons.
  const { flags } = useLook()

  async function start() {
    setBusy(true)
    const res = await worker().startChat(profile.id)
    setBusy(false)
    if (!res.ok) {
      showFailureToast((t) => t.chatNotStarted())
      return
    }
    navigate(`/chats/${res.value.id}`)
  }

  if (!flags.chat) return null
  return (
    <button
      type="button"
      className={`button button--secondary chat-button ${className}`}
      aria-label={m.chat_label({ name: profile.name })}
      aria-busy={busy}
      disabled={busy}
      onClick={() => void start()}
    >
      <MessageCircle className="icon" aria-hidden="true" />{' '}
      <span className="button__text">{m.chat_text()}</span>
    </button>
  )
}
