// The install badge (spec §4) is unread messages + new likes, written and
// announced by the worker after a sync — but never after the store was
// wiped while that sync ran (logout, an expired session): the logout's badge
// 0 must be the last word, and nothing of the member may stay on the device.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { SyncContext } from '../core/context.ts'
import type { SyncEvent } from '../core/events.ts'
import { kvGet } from '../store/kv.ts'
import { LocalDb } from '../store/store.ts'
import { badgeCount, publishBadge } from './badge.ts'

let db: LocalDb
let events: SyncEvent[]
let ctx: SyncContext

beforeEach(() => {
  db = new LocalDb(`badge-${crypto.randomUUID()}`)
  events = []
  ctx = { db, emit: (e) => events.push(e), sessionGone: async () => {}, now: () => Date.now() }
})
afterEach(() => db.delete())

const unreadChat = (id: number, unread: number) =>
  db.chats.put({
    id,
    order: id,
    conversation: { id },
    num_unread_messages: unread,
    last_message: { body: 'hi', created_at: '2026-11-24T12:00:00.000Z', from_me: false },
    profile: { id: 100 + id } as never,
  })

it('announces unread messages + new likes once, when the count changes', async () => {
  await unreadChat(1, 3)
  await unreadChat(2, 5)
  expect(await publishBadge(ctx)).toBe(8)
  expect(await publishBadge(ctx)).toBe(8)
  expect(events).toEqual([{ type: 'badge', count: 8 }])
  expect(await kvGet(db, 'badge')).toBe(8)
})

const likedBy = (id: number, likeNew: boolean) =>
  db.likedBy.put({
    id,
    likeNew,
    serverNew: likeNew,
    confirmedAt: 0,
    createdAt: '2026-11-24T12:00:00.000Z',
    order: id,
  })

it('install badge = total unread messages plus new likes (spec §4)', async () => {
  await unreadChat(1, 3)
  await unreadChat(2, 5)
  await likedBy(11, true)
  await likedBy(12, true)
  // A like already seen does not count.
  await likedBy(13, false)
  expect(await badgeCount(db)).toBe(3 + 5 + 2)
  expect(await publishBadge(ctx)).toBe(10)
  expect(events).toEqual([{ type: 'badge', count: 10 }])
})

it('install badge counts new likes with no unread messages (spec §4)', async () => {
  await unreadChat(1, 0)
  await likedBy(11, true)
  expect(await badgeCount(db)).toBe(1)
})

it('writes and announces nothing when the store was wiped since the sync began', async () => {
  await unreadChat(1, 8)
  const epoch = db.epoch
  // The logout's wipe lands while the sync that read these chats is still running.
  await db.wipe()
  await unreadChat(1, 8)
  expect(await publishBadge(ctx, epoch)).toBeNull()
  expect(events).toEqual([])
  expect(await db.kv.count()).toBe(0)
})

it('leaves no badge row when a wipe begins while the count is on its way', async () => {
  await unreadChat(1, 4)
  const publishing = publishBadge(ctx)
  const wiping = db.wipe()
  expect(await publishing).toBeNull()
  expect(events).toEqual([])
  await wiping
  expect(await db.kv.count()).toBe(0)
  expect(await db.chats.count()).toBe(0)
})

it('stores the two numbers behind the badge for the header and the title', async () => {
  await unreadChat(1, 3)
  await unreadChat(2, 5)
  await likedBy(11, true)
  await likedBy(12, false)
  await publishBadge(ctx)
  expect(await kvGet(db, 'counts')).toEqual({ unread: 8, likes: 1 })
  await db.chats.update(1, { num_unread_messages: 0 })
  await publishBadge(ctx)
  expect(await kvGet(db, 'counts')).toEqual({ unread: 5, likes: 1 })
  expect(await kvGet(db, 'badge')).toBe(6)
})
