import type { Profile } from '../../api/contract/index.ts'
import { m } from '../../messages/paraglide/messages.js'

/**
 * A tile's online state (docs/live.md): a green dot, with "online now" for
 * screen readers, for a member online now; nothing otherwise (the answer
 * says nothing, or the member hides it). The words "active today" and
 * "active this week" are LastActive's (profile, chat head): kept out of
 * this file, which the /members first load carries.
 */
export function OnlineDot({ lastActive }: { lastActive: Profile['last_active'] }) {
  if (lastActive !== 'now') return null
  return (
    <span className="online-dot online-dot--now">
      <span className="online-dot__dot" aria-hidden="true" />
      <span className="visually-hidden">{m.online_now()}</span>
    </span>
  )
}
