// "… is typing" (POST /api/typing.php): a `typing` poke to the other member
// of the conversation through the live stream, never stored. The client sends
// one at most every TYPING_SEND_EVERY_MS while its member types; the other
// side shows it for TYPING_SHOWN_MS after the last one (docs/live.md).
import type { Db } from '../../db/client.ts'
import { blockedBetween } from '../blocks/index.ts'
import { TYPING_SERVER_GAP_MS } from '../contract/rules/live.ts'
import { notifyMembersSoon } from '../events/bus.ts'
import { ApiFailure } from '../http/errors.ts'
import { otherMember } from './messages.ts'

/**
 * When this process last passed a signal on, per database, member and
 * conversation (two databases in one process, as the tests run both engines,
 * have their own ids).
 */
const sentBy = new WeakMap<Db, Map<string, number>>()
/** Past this many entries the old ones are dropped (they only throttle). */
const MAX_REMEMBERED = 10_000

/**
 * Passes the signal on, unless one of the member's went out for this
 * conversation within TYPING_SERVER_GAP_MS (`quiet`: a client sending faster
 * than it should gains nothing). 404 for a conversation that is not the
 * member's; 403 across a block, either way.
 */
export async function sendTyping(
  db: Db,
  memberId: number,
  conversation: number,
  now = Date.now(),
): Promise<'sent' | 'quiet'> {
  const other = await otherMember(db, memberId, conversation)
  if (await blockedBetween(db, memberId, other)) {
    throw new ApiFailure(403, 'blocked', 'conversation', 'one of you blocked the other')
  }
  const lastSent = sentBy.get(db) ?? new Map<string, number>()
  sentBy.set(db, lastSent)
  const key = `${memberId}:${conversation}`
  const last = lastSent.get(key)
  if (last !== undefined && now - last < TYPING_SERVER_GAP_MS) return 'quiet'
  if (lastSent.size >= MAX_REMEMBERED) {
    for (const [k, at] of lastSent) if (now - at >= TYPING_SERVER_GAP_MS) lastSent.delete(k)
  }
  lastSent.set(key, now)
  await notifyMembersSoon(db, [other], { type: 'typing', conversation })
  return 'sent'
}
