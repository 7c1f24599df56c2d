// Messages in the worker: pulled by cursor into the store (so a conversation
// seen once reads offline), sent through the outbox (shown at once as
// pending, sent with the entry's id as client id, so a replay after a lost
// answer is one message and one debit), and the credits balance the composer
// shows. A refused send (402: not enough credits; 403: blocked) keeps its text
// as a failed message the member can retry or discard. A send over the
// member's send limit (429 rate_limited) is not refused but held: it stays
// pending, marked with why and until when (the answer's Retry-After), and
// the outbox sends it by itself then (sync/core/outbox.ts says why).
import { z } from 'zod'
import {
  Gift,
  type Message,
  RATE_LIMITED,
  type SendMessageResponse,
  VOICE_MAX_MS,
  VOICE_TYPES,
} from '../../api/contract/index.ts'
import type { SyncContext } from '../core/context.ts'
import { fail, ok, type Result } from '../core/errors.ts'
import { fenced } from '../core/fence.ts'
import { request } from '../core/http.ts'
import type { Outbox } from '../core/outbox.ts'
import { kvGet, kvPut } from '../store/kv.ts'
import type { MessageRow } from '../store/store.ts'

/** How many recently opened conversations a catch-up pulls again, and for how long after the opening. */
export const CATCH_UP_CHATS = 5
export const CATCH_UP_MS = 60 * 60_000

/** Orders a message not yet on the server after every server id. */
const UNSENT_ORDER = Number.MAX_SAFE_INTEGER / 2

const MessagePayload = z.object({
  conversation: z.number().int(),
  text: z.string(),
  /** The sender's profile id, to show the pending message as mine. */
  from: z.number().int(),
})

/** A photo message's outbox payload: the photo itself waits in IndexedDB with its caption. */
const PhotoPayload = MessagePayload.extend({ photo: z.instanceof(Blob) })
type PhotoPayload = z.infer<typeof PhotoPayload>

/**
 * A voice message's outbox payload: the recording waits in IndexedDB with
 * its container type and the length the recorder measured.
 */
const VoicePayload = MessagePayload.extend({
  voice: z.instanceof(Blob),
  type: z.enum(VOICE_TYPES),
  duration_ms: z.number().int().min(1).max(VOICE_MAX_MS),
})
type VoicePayload = z.infer<typeof VoicePayload>

/** A gift's outbox payload: the gift as the picker showed it (its icon is the text). */
const GiftPayload = MessagePayload.extend({ gift: Gift })

export const rowOf = (m: Message): MessageRow => ({
  key: m.client_id ?? `m${m.id}`,
  id: m.id,
  conversation: m.conversation,
  from: m.from,
  text: m.text,
  sentAt: m.sent_at,
  status: 'sent',
  order: m.id,
  readAt: m.read_at,
  held: m.held === true,
  ...(m.photo === undefined ? {} : { photo: m.photo, photoHidden: m.photo_hidden === true }),
  ...(m.gift === undefined ? {} : { gift: m.gift }),
  ...(m.voice === undefined ? {} : { voice: m.voice, voiceHidden: m.voice_hidden === true }),
})

/** The multipart body of a photo send (api/chats/photos.ts), the entry's id as its client id. */
const photoForm = (p: PhotoPayload, clientId: string) => {
  const form = new FormData()
  form.append('conversation', String(p.conversation))
  form.append('client_id', clientId)
  if (p.text !== '') form.append('text', p.text)
  form.append('file', p.photo, 'photo')
  return form
}

/** The multipart body of a voice send (VOICE_SEND_PATH), the entry's id as its client id. */
const voiceForm = (p: VoicePayload, clientId: string) => {
  const form = new FormData()
  form.append('conversation', String(p.conversation))
  form.append('client_id', clientId)
  form.append('duration_ms', String(p.duration_ms))
  form.append('file', p.voice, p.type === 'audio/mp4' ? 'voice.m4a' : 'voice.webm')
  return form
}

export class MessagesSync {
  constructor(
    private readonly ctx: SyncContext,
    private readonly outbox: Outbox,
  ) {
    const { db } = ctx
    const pending = (p: z.infer<typeof MessagePayload>, entry: { id: string; createdAt: number }) =>
      ({
        key: entry.id,
        id: null,
        conversation: p.conversation,
        from: p.from,
        text: p.text,
        sentAt: new Date(entry.createdAt).toISOString(),
        status: 'pending',
        order: UNSENT_ORDER + entry.createdAt,
      }) satisfies MessageRow
    const common = this.common()
    outbox.register('message', {
      payload: MessagePayload,
      tables: () => [db.messages, db.kv],
      apply: async (p, entry) => {
        await db.messages.put(pending(p, entry))
      },
      send: (p, entry) =>
        request('sendMessage', {
          body: { conversation: p.conversation, text: p.text, client_id: entry.id },
        }),
      ...common,
    })
    // A photo message: the same life as a text (pending at once, sent once
    // with the entry's id, failed with why), its photo kept on the device
    // until the server's answer names the stored one.
    outbox.register('photo', {
      payload: PhotoPayload,
      tables: () => [db.messages, db.kv],
      apply: async (p, entry) => {
        await db.messages.put({ ...pending(p, entry), localPhoto: p.photo })
      },
      send: (p, entry) => request('sendPhoto', { body: photoForm(p, entry.id) }),
      ...common,
    })
    // A voice message: the same life as a photo, its recording kept on the
    // device (and played from there) until the server's answer names the
    // stored one.
    outbox.register('voice', {
      payload: VoicePayload,
      tables: () => [db.messages, db.kv],
      apply: async (p, entry) => {
        await db.messages.put({
          ...pending(p, entry),
          localVoice: { blob: p.voice, type: p.type, duration_ms: p.duration_ms },
        })
      },
      send: (p, entry) => request('sendVoice', { body: voiceForm(p, entry.id) }),
      ...common,
    })
    // A gift: the same life as a text, the gift shown at once as pending.
    outbox.register('gift', {
      payload: GiftPayload,
      tables: () => [db.messages, db.kv],
      apply: async (p, entry) => {
        await db.messages.put({ ...pending(p, entry), gift: p.gift })
      },
      send: (p, entry) =>
        request('sendGift', {
          body: { conversation: p.conversation, gift: p.gift.slug, client_id: entry.id },
        }),
      ...common,
    })
  }

  /** What a text and a photo message do alike once the server answered, refused or made them wait. */
  private common() {
    const { db } = this.ctx
    return {
      settle: async (_p: unknown, answer: SendMessageResponse) => {
        const row = rowOf(answer.message)
        // The recipient may have read it before this answer came (the pokes
        // go out before it): a read mark stored meanwhile stays.
        const stored = await db.messages.get(row.key)
        await db.messages.put({ ...row, readAt: row.readAt ?? stored?.readAt ?? null })
        const credits = await kvGet(db, 'credits')
        if (credits) await kvPut(db, 'credits', { ...credits, credits: answer.credits })
      },
      revert: async (_p: unknown, entry: { id: string }, error?: { code: string }) => {
        await db.messages.update(entry.id, {
          status: 'failed',
          error: error?.code ?? 'refused',
          retryAt: undefined,
        })
        if (error?.code === 'insufficient_credits') void this.syncCredits()
      },
      wait: async (
        _p: unknown,
        entry: { id: string },
        error: { code: string },
        retryAt: number,
      ) => {
        // Still pending; the chat says why only when it is the send limit
        // (offline and server trouble read as pending, as before).
        await db.messages.update(
          entry.id,
          error.code === RATE_LIMITED
            ? { error: RATE_LIMITED, retryAt }
            : { error: undefined, retryAt: undefined },
        )
      },
    }
  }

  /** Sends a message: at once in the store as pending, then through the outbox. */
  async send(conversation: number, text: string): Promise<Result<{ key: string }>> {
    const user = await kvGet(this.ctx.db, 'user')
    const trimmed = text.trim()
    if (!user || trimmed.length === 0) {
      return { ok: false, error: { code: 'invalid_input', field: 'text', message: 'empty' } }
    }
    const key = await this.outbox.enqueue('message', {
      conversation,
      text: trimmed,
      from: user.profile.id,
    })
    return ok({ key })
  }

  /**
   * A photo message (the caption may be empty): at once in the store as
   * pending with the photo, then through the outbox, which keeps the photo in
   * IndexedDB until it is sent, offline as long as it takes.
   */
  async sendPhoto(
    conversation: number,
    text: string,
    photo: Blob,
  ): Promise<Result<{ key: string }>> {
    const user = await kvGet(this.ctx.db, 'user')
    if (!user) {
      return { ok: false, error: { code: 'not_logged_in', message: 'no member' } }
    }
    const key = await this.outbox.enqueue('photo', {
      conversation,
      text: text.trim(),
      from: user.profile.id,
      photo,
    })
    return ok({ key })
  }

  /**
   * A voice message: at once in the store as pending with its recording,
   * then through the outbox, which keeps the recording in IndexedDB until it
   * is sent, offline as long as it takes.
   */
  async sendVoice(
    conversation: number,
    voice: Blob,
    type: VoicePayload['type'],
    durationMs: number,
  ): Promise<Result<{ key: string }>> {
    const user = await kvGet(this.ctx.db, 'user')
    if (!user) {
      return { ok: false, error: { code: 'not_logged_in', message: 'no member' } }
    }
    const duration_ms = Math.min(VOICE_MAX_MS, Math.max(1, Math.round(durationMs)))
    const key = await this.outbox.enqueue('voice', {
      conversation,
      text: '',
      from: user.profile.id,
      voice,
      type,
      duration_ms,
    })
    return ok({ key })
  }

  /** A gift of the site's catalogue: at once in the store as pending, then through the outbox. */
  async sendGift(conversation: number, gift: Gift): Promise<Result<{ key: string }>> {
    const user = await kvGet(this.ctx.db, 'user')
    if (!user) {
      return { ok: false, error: { code: 'not_logged_in', message: 'no member' } }
    }
    const key = await this.outbox.enqueue('gift', {
      conversation,
      text: gift.icon,
      from: user.profile.id,
      gift,
    })
    return ok({ key })
  }

  /** A failed message sent again (a new client id: the server never stored the first). */
  async retry(key: string): Promise<Result<{ key: string }>> {
    const row = await this.ctx.db.messages.get(key)
    if (row?.status !== 'failed') return ok({ key })
    await this.ctx.db.messages.delete(key)
    if (row.gift) return this.sendGift(row.conversation, row.gift)
    if (row.localVoice) {
      const v = row.localVoice
      return this.sendVoice(row.conversation, v.blob, v.type, v.duration_ms)
    }
    return row.localPhoto
      ? this.sendPhoto(row.conversation, row.text, row.localPhoto)
      : this.send(row.conversation, row.text)
  }

  /**
   * The member reported this message: its photo or recording is hidden for
   * them at once (the server agrees).
   */
  async hidePhoto(messageId: number): Promise<void> {
    const { db } = this.ctx
    await db.messages
      .filter((m) => m.id === messageId && m.photo !== undefined)
      .modify({ photo: null, photoHidden: true })
    await db.messages
      .filter((m) => m.id === messageId && m.voice !== undefined)
      .modify({ voice: null, voiceHidden: true })
  }

  async discard(key: string): Promise<void> {
    const row = await this.ctx.db.messages.get(key)
    if (row?.status === 'failed') await this.ctx.db.messages.delete(key)
  }

  /**
   * What is new in a conversation since the newest stored message (or its
   * newest page when none is stored), into the store; from `from.after`
   * instead when given (a poke's message was stored before this pull).
   */
  async pull(
    conversation: number,
    from?: { after: number | undefined },
  ): Promise<Result<{ added: number }>> {
    const { db } = this.ctx
    // Every page of this pull is dropped after a wipe since its start.
    const epoch = db.epoch
    let added = 0
    let cursor = from ? from.after : await this.cursorOf(conversation)
    for (;;) {
      const after = cursor
      const res = await fenced(
        db,
        () => request('messages', { query: after ? { conversation, after } : { conversation } }),
        async (answer) => {
          await this.store(answer.messages)
          return answer
        },
        epoch,
      )
      if (!res.ok) {
        await this.ctx.sessionGone(res.error)
        return res
      }
      added += res.value.messages.length
      // Without a cursor the answer is the newest page: nothing newer to ask for.
      if (!after || !res.value.has_more || res.value.messages.length === 0) break
      cursor = Math.max(...res.value.messages.map((m) => m.id))
    }
    this.ctx.emit({ type: 'synced', what: 'chats' })
    return ok({ added })
  }

  /** The conversation's stored messages that reached the server, in their order. */
  private sent(conversation: number) {
    return this.ctx.db.messages
      .where('[conversation+order]')
      .between([conversation, 0], [conversation, UNSENT_ORDER], true, false)
  }

  /**
   * Where a pull of the conversation starts: after its newest stored message
   * a pull brought (one a poke carried may have arrived over a gap).
   */
  private async cursorOf(conversation: number): Promise<number | undefined> {
    const newest = await this.sent(conversation)
      .reverse()
      .filter((m) => m.hinted !== true)
      .first()
    // A held opening (docs/live.md) is the conversation's only message;
    // released, it keeps its id: the newest page brings it unmarked.
    return newest?.id && !newest.held ? newest.id : undefined
  }

  /**
   * A message a `messages` poke carried (api/contract Poke): shown at once,
   * then the pull from where the store stood before it, so whatever came
   * between (a poke lost while the stream was down) is pulled too and the
   * pull's answer, the truth, replaces the poke's copy.
   */
  async received(message: Message): Promise<Result<{ added: number }>> {
    const { db } = this.ctx
    const epoch = db.epoch
    const after = await this.cursorOf(message.conversation)
    // The store wiped meanwhile (logout): the poke's copy must not put a member's data back.
    if (db.epoch !== epoch) {
      return fail({ code: 'logged_out', message: 'the local store was wiped meanwhile' })
    }
    await db.messages.put({ ...rowOf(message), hinted: true })
    this.ctx.emit({ type: 'synced', what: 'chats' })
    return this.pull(message.conversation, { after })
  }

  /** The id of the conversation's newest stored message that reached the server; 0: none. */
  async newestSentId(conversation: number): Promise<number> {
    return (await this.sent(conversation).last())?.id ?? 0
  }

  /** A tab opened the conversation: remembered (kv `openedChats`) for catchUp. */
  async opened(conversation: number): Promise<void> {
    const { db } = this.ctx
    await db.transaction('rw', db.kv, async () => {
      const before = (await kvGet(db, 'openedChats')) ?? {}
      // Strictly later than the last one: two chats opened in the same
      // millisecond keep the order they were opened in.
      const now = Math.max(this.ctx.now(), ...Object.values(before).map((at) => at + 1))
      // The one opened now first (object keys of numbers iterate in number order).
      const others = Object.entries(before)
        .filter(([key, at]) => key !== String(conversation) && now - at < CATCH_UP_MS)
        .sort(([, a], [, b]) => b - a)
      const kept = [[String(conversation), now] as const, ...others].slice(0, CATCH_UP_CHATS)
      await kvPut(db, 'openedChats', Object.fromEntries(kept))
    })
  }

  /**
   * Pulls the conversations opened lately whose last message in the chat
   * list is newer than the newest one stored: a message committed between a
   * chat's opening pull and the live stream's `ready` had no poke this tab
   * could hear, and an open chat is pulled on pokes only. Run after the
   * chat list was fetched (the engine's syncNow); costs a request only
   * where something was missed.
   */
  async catchUp(): Promise<void> {
    const { db } = this.ctx
    const now = this.ctx.now()
    const opened = (await kvGet(db, 'openedChats')) ?? {}
    for (const [key, at] of Object.entries(opened)) {
      const conversation = Number(key)
      if (now - at >= CATCH_UP_MS) continue
      const last = (await db.chats.get(conversation))?.last_message
      if (!last) continue
      const newest = await this.sent(conversation).last()
      if (newest && Date.parse(newest.sentAt) >= Date.parse(last.created_at)) continue
      await this.pull(conversation)
    }
  }

  /**
   * The newest page again (a `seen` poke: the read marks of messages already
   * stored changed; a pull by cursor would not bring them).
   */
  async refreshNewest(conversation: number): Promise<Result<null>> {
    return fenced(
      this.ctx.db,
      () => request('messages', { query: { conversation } }),
      async ({ messages }) => {
        await this.store(messages)
        return null
      },
    )
  }

  /** One page older than the oldest stored message (scrolling up); whether more exist. */
  async loadOlder(conversation: number): Promise<Result<{ more: boolean }>> {
    const { db } = this.ctx
    const oldest = await this.sent(conversation).first()
    return fenced(
      db,
      () =>
        request('messages', {
          query: oldest?.id ? { conversation, before: oldest.id } : { conversation },
        }),
      async ({ messages, has_more }) => {
        await this.store(messages)
        return { more: has_more }
      },
    )
  }

  /** Server messages replace pending copies of themselves (same client id = same key). */
  private async store(messages: Message[]) {
    if (messages.length === 0) return
    await this.ctx.db.messages.bulkPut(messages.map(rowOf))
  }

  /** Spec §4: opening a chat sets its unread count to 0, here at once and on the server. */
  async markRead(conversation: number): Promise<Result<null>> {
    const { db } = this.ctx
    await db.chats.update(conversation, { num_unread_messages: 0 })
    const res = await request('chatRead', { body: { conversation } })
    return res.ok ? ok(null) : res
  }

  /**
   * Spec §4: deleting a chat removes it from the list at once, then reloads
   * the list; spec §8: a failure is told to the member (the page alerts).
   */
  async deleteChat(conversation: number): Promise<Result<null>> {
    const { db } = this.ctx
    await db.transaction('rw', [db.chats, db.messages], async () => {
      await db.chats.delete(conversation)
      await db.messages
        .where('[conversation+order]')
        .between([conversation, 0], [conversation, Number.MAX_SAFE_INTEGER])
        .delete()
    })
    const res = await request('chatDelete', { body: { conversation } })
    return res.ok ? ok(null) : res
  }

  /** GET /api/credits.php into kv `credits` (the composer's balance and price). */
  async syncCredits(): Promise<Result<null>> {
    const { db } = this.ctx
    const res = await fenced(
      db,
      () => request('credits'),
      (credits) => kvPut(db, 'credits', credits).then(() => null),
    )
    if (!res.ok) await this.ctx.sessionGone(res.error)
    return res
  }
}
