import { m } from '../../messages/paraglide/messages.js'
import { useTyping } from '../data/useLive.ts'
import './live.css'

/** "… is typing" while the other member of the conversation types (gone after 5 s of silence). */
export function TypingIndicator({ conversation, name }: { conversation: number; name: string }) {
  const typing = useTyping(conversation)
  return (
    <p className="typing-indicator" role="status" aria-live="polite">
      {typing ? m.chat_typing({ name }) : ''}
    </p>
  )
}
