import type { Profile } from '../../api/contract/index.ts'
import { m } from '../../messages/paraglide/messages.js'

/**
 * A member's online state (docs/live.md): a green dot for "online now"; with
 * `label`, the words too, and "active today" / "active this week" after that.
 * Nothing when the answer says nothing or the member hides it.
 */
export function OnlineDot({
  lastActive,
  label = false,
}: {
  lastActive: Profile['last_active']
  label?: boolean
}) {
  if (!lastActive || (!label && lastActive !== 'now')) return null
  const text =
    lastActive === 'now'
      ? m.online_now()
      : lastActive === 'today'
        ? m.active_today()
        : m.active_week()
  return (
    <span className={`online-dot online-dot--${lastActive}`}>
      {lastActive === 'now' && <span className="online-dot__dot" aria-hidden="true" />}
      <span className={label ? 'online-dot__label' : 'visually-hidden'}>{text}</span>
    </span>
  )
}
