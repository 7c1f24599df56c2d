import { m } from '../../messages/paraglide/messages.js'
import { formatTime } from './format.ts'
import './live.css'

/** "Seen" under the member's last message the other member read (docs/live.md). */
export function SeenMark({ readAt }: { readAt: string }) {
  return (
    <p className="seen-mark">
      <time dateTime={readAt} title={formatTime(readAt)}>
        {m.chat_seen()}
      </time>
    </p>
  )
}
