import type { Profile } from '../../api/contract/index.ts'
import { m } from '../../messages/paraglide/messages.js'

/**
 * A member's online state in words (docs/live.md), on the profile and in
 * the chat's head: a green dot and "Online now", else "Active today" or
 * "Active this week"; nothing when the answer says nothing or the member
 * hides it.
 */
export function LastActive({ lastActive }: { lastActive: Profile['last_active'] }) {
  if (!lastActive) return null
  const text =
    lastActive === 'now'
      ? m.online_now()
      : lastActive === 'today'
        ? m.active_today()
        : m.active_week()
  return (
    <span className={`online-dot online-dot--${lastActive}`}>
      {lastActive === 'now' && <span className="online-dot__dot" aria-hidden="true" />}
      <span className="online-dot__label">{text}</span>
    </span>
  )
}
