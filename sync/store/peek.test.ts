// The page's own first reads of the store (sync/store/peek.ts) answer what
// the worker's reads of the same name answer (sync/store/watch.ts), on a
// store Dexie wrote; and they never create a store that is not there.
// fake-indexeddb must be installed before Dexie loads: keep this import first.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { profile, user } from '../test/fake-api.ts'
import { kvPut } from './kv.ts'
import { FirstReads, openForPeek, peekRead, STORE_NAME } from './peek.ts'
import { DB_NAME, LocalDb } from './store.ts'
import { storeReads } from './watch.ts'

let name: string
let db: LocalDb

const chat = (id: number, order: number, text: string | null) => ({
  id,
  order,
  conversation: { id },
  profile: profile(100 + id),
  last_message:
    text === null ? null : { body: text, from_me: false, created_at: '2026-11-01T10:00:00.000Z' },
  num_unread_messages: 1,
})

beforeEach(async () => {
  name = `peek-test-${crypto.randomUUID()}`
  db = new LocalDb(name)
  await kvPut(db, 'user', user(1))
  await db.profiles.bulkPut([1, 2, 3, 4].map((id) => ({ ...profile(id), seenAt: 1 })))
  await db.searchPages.put({
    key: 'default',
    page: 1,
    // 9 has no stored profile: left out, as the worker leaves it out.
    ids: [3, 1, 9],
    similarIds: [4],
    numResults: 3,
    filters: {} as never,
    filterOptions: {} as never,
    fetchedAt: 1,
  })
  await db.likes.bulkPut([
    { id: 1, liked: true, serverLiked: true, confirmedAt: 1, order: 1 },
    { id: 3, liked: false, serverLiked: true, confirmedAt: 1, order: 2 },
  ])
  // Stored in another order than the server's; one conversation only opened.
  await db.chats.bulkPut([chat(7, 2, 'later'), chat(5, 1, 'first'), chat(6, 0, null)])
})

afterEach(async () => {
  db.close()
  await db.delete()
})

const peeked = async <N extends Parameters<typeof peekRead>[1]>(
  n: N,
  args: Parameters<typeof peekRead<N>>[2],
) => {
  const idb = await openForPeek(name)
  if (!idb) throw new Error('the store did not open')
  try {
    return await peekRead(idb, n, args)
  } finally {
    idb.close()
  }
}

describe("the page's first reads", () => {
  it('read the store the worker writes', () => {
    expect(STORE_NAME).toBe(DB_NAME)
    expect(STORE_NAME).toBe('amora')
  })

  it('answer what the worker answers: the member, the chat list, a search page, like state', async () => {
    expect(await peeked('kv', ['user'])).toEqual({ value: await storeReads.kv(db, 'user') })
    expect(await peeked('kv', ['settings'])).toEqual({ value: undefined })
    const chats = await peeked('chats', [])
    expect(chats).toEqual({ value: await storeReads.chats(db) })
    expect(chats?.value.map((c) => c.id)).toEqual([5, 7])
    expect(await peeked('chat', [7])).toEqual({ value: await storeReads.chat(db, 7) })
    const page = await peeked('searchPage', ['default', 1])
    expect(page).toEqual({ value: await storeReads.searchPage(db, 'default', 1) })
    expect(page?.value.profiles.map((p) => p.id)).toEqual([3, 1])
    expect(await peeked('searchPage', ['other', 1])).toEqual({
      value: await storeReads.searchPage(db, 'other', 1),
    })
    expect(await peeked('likedSet', [[1, 3, 4]])).toEqual({
      value: await storeReads.likedSet(db, [1, 3, 4]),
    })
  })

  it('leave the reads they do not have to the worker', async () => {
    expect(await peeked('likes', ['given'])).toBeNull()
    expect(await peeked('cams', ['x'])).toBeNull()
  })

  it('never create a store that is not there (Dexie creates it with its tables)', async () => {
    const missing = `peek-missing-${crypto.randomUUID()}`
    expect(await openForPeek(missing)).toBeNull()
    const names = (await indexedDB.databases()).map((d) => d.name)
    expect(names).not.toContain(missing)
    const fresh = new LocalDb(missing)
    await fresh.open()
    expect(fresh.tables.map((t) => t.name)).toContain('kv')
    fresh.close()
    await fresh.delete()
  })

  it('answer each read once, then nothing once the worker answers', async () => {
    const first = new FirstReads(name)
    const a = first.read('kv', ['user'])
    expect(first.read('kv', ['user'])).toBe(a)
    expect(first.settled('kv', ['user'])).toBeUndefined()
    expect((await a)?.value).toEqual(user(1))
    expect(first.settled('kv', ['user'])?.value).toEqual(user(1))
    first.end()
    expect(first.settled('kv', ['user'])).toBeUndefined()
    expect(await first.read('kv', ['user'])).toBeNull()
  })

  it('answer null where the store is not there', async () => {
    const first = new FirstReads(`peek-missing-${crypto.randomUUID()}`)
    expect(await first.read('chats', [])).toBeNull()
  })
})
