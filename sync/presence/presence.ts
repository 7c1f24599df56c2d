// Live signals in the worker (docs/live.md): the visitors of the member's
// profile (kv `visitors`, so /likes/visitors shows offline), the other side
// typing (kv `typing`: until when each conversation shows "… is typing";
// only the device's store, never the server's) and the member's own typing,
// sent at most every TYPING_SEND_EVERY_MS per conversation.
import type { PrivacyUpdate } from '../../api/contract/index.ts'
import { TYPING_SEND_EVERY_MS, TYPING_SHOWN_MS } from '../../api/contract/rules/live.ts'
import type { SyncContext } from '../core/context.ts'
import { ok, type Result } from '../core/errors.ts'
import { request } from '../core/http.ts'
import { pull } from '../core/pull.ts'
import { kvGet, kvPut } from '../store/kv.ts'

export class PresenceSync {
  /** When this worker last told the server its member types, per conversation. */
  private typingSentAt = new Map<number, number>()

  constructor(private readonly ctx: SyncContext) {}

  /** GET /api/visitors.php into kv `visitors`, their profiles into `profiles`. */
  syncVisitors(): Promise<Result<number>> {
    const { ctx } = this
    return pull(ctx, 'visitors', {}, 'visitors', async (answer) => {
      const { db } = ctx
      await db.transaction('rw', [db.kv, db.profiles], async () => {
        await kvPut(db, 'visitors', answer)
        const seenAt = ctx.now()
        await db.profiles.bulkPut(answer.visitors.map((v) => ({ ...v.profile, seenAt })))
      })
      return answer.visitors.length
    })
  }

  /** The list was looked at: none is new, here at once and on the server. */
  async markVisitorsSeen(): Promise<Result<null>> {
    const { db } = this.ctx
    const stored = await kvGet(db, 'visitors')
    if (stored) {
      await kvPut(db, 'visitors', {
        visitors: stored.visitors.map((v) => ({ ...v, is_new: false })),
        new_count: 0,
      })
    }
    const res = await request('visitorsSeen')
    return res.ok ? ok(null) : res
  }

  /** A `typing` poke: the conversation shows "… is typing" for TYPING_SHOWN_MS from now. */
  async typingHeard(conversation: number): Promise<void> {
    const { db } = this.ctx
    const now = this.ctx.now()
    const current = (await kvGet(db, 'typing')) ?? {}
    // Signals long gone are dropped as new ones come.
    const next = Object.fromEntries(Object.entries(current).filter(([, until]) => until > now))
    next[String(conversation)] = now + TYPING_SHOWN_MS
    await kvPut(db, 'typing', next)
  }

  /** A message of the conversation arrived: whoever typed has sent it. */
  async typingDone(conversation: number): Promise<void> {
    const { db } = this.ctx
    const current = await kvGet(db, 'typing')
    if (!current?.[String(conversation)]) return
    const { [String(conversation)]: _gone, ...rest } = current
    await kvPut(db, 'typing', rest)
  }

  /** The member typed in the conversation: told to the server at most every TYPING_SEND_EVERY_MS. */
  async typing(conversation: number): Promise<void> {
    const now = this.ctx.now()
    const last = this.typingSentAt.get(conversation)
    if (last !== undefined && now - last < TYPING_SEND_EVERY_MS) return
    this.typingSentAt.set(conversation, now)
    // Best effort by nature: a lost signal only means no "is typing" shown.
    await request('typing', { body: { conversation } })
  }

  /** The member's privacy choices (read receipts, invisible browsing, online status). */
  async privacy() {
    const res = await request('privacy')
    if (res.ok) await kvPut(this.ctx.db, 'privacy', res.value)
    return res
  }

  async setPrivacy(update: PrivacyUpdate) {
    const res = await request('privacyUpdate', { body: update })
    if (res.ok) await kvPut(this.ctx.db, 'privacy', res.value)
    return res
  }
}

export function presenceHandlers(presence: PresenceSync) {
  return {
    syncVisitors: () => presence.syncVisitors(),
    markVisitorsSeen: () => presence.markVisitorsSeen(),
    typing: (conversation: number) => presence.typing(conversation),
    privacy: () => presence.privacy(),
    setPrivacy: (update: PrivacyUpdate) => presence.setPrivacy(update),
  }
}

export type PresenceHandlers = ReturnType<typeof presenceHandlers>
