// The store reads the worker runs for the page (no Dexie on the main thread):
// a watch answers the current value at once, again after every write, and
// nothing after it is stopped (shown against a sentinel, never a pause).
// fake-indexeddb must be installed before Dexie loads: keep this import first.
import 'fake-indexeddb/auto'
import { releaseProxy } from 'comlink'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { profile } from '../test/fake-api.ts'
import { kvPut } from './kv.ts'
import { LocalDb } from './store.ts'
import { watchHandlers } from './watch.ts'

let db: LocalDb

beforeEach(() => {
  db = new LocalDb(`watch-test-${crypto.randomUUID()}`)
})

afterEach(async () => {
  db.close()
  await db.delete()
})

/** Collects a watch's answers; `next(n)` waits until there are n of them. */
function collector<T>() {
  const values: T[] = []
  const waiters: (() => void)[] = []
  return {
    values,
    listener: (v: T) => {
      values.push(v)
      for (const w of waiters.splice(0)) w()
    },
    /** Waits for the n-th answer (a hang ends at the suite's time-out, which grows with the load). */
    async next(n: number) {
      while (values.length < n) await new Promise<void>((resolve) => waiters.push(resolve))
      return values[n - 1]
    },
    /** Waits until the latest answer passes `done`. */
    async until(done: (latest: T) => boolean) {
      while (values.length === 0 || !done(values[values.length - 1] as T)) {
        await new Promise<void>((resolve) => waiters.push(resolve))
      }
    },
  }
}

describe('store reads for the page', () => {
  it('a kv watch answers the stored value, then every change', async () => {
    const reads = watchHandlers(db)
    const seen = collector<unknown>()
    reads.watchStore('kv', ['badge'], seen.listener)
    expect(await seen.next(1)).toBeUndefined()
    await kvPut(db, 'badge', 3)
    expect(await seen.next(2)).toBe(3)
    // A sentinel change after the one under test: the next answer is the
    // sentinel's, not a repeat of 3.
    await kvPut(db, 'badge', 4)
    expect(await seen.next(3)).toBe(4)
    expect(seen.values).toEqual([undefined, 3, 4])
  })

  it('a stopped kv watch answers nothing more, and its listener is released', async () => {
    const reads = watchHandlers(db)
    const seen = collector<unknown>()
    const released = vi.fn()
    const id = reads.watchStore(
      'kv',
      ['badge'],
      Object.assign(seen.listener, { [releaseProxy]: released }),
    )
    expect(await seen.next(1)).toBeUndefined()
    await kvPut(db, 'badge', 3)
    expect(await seen.next(2)).toBe(3)
    // A sentinel watch of the same key, started after the one under test. The
    // store tells its watches of a change in the order they started, so by the
    // time the sentinel answers with 5 (written after 4), a watch still running
    // would have answered for 4: a deterministic end, not a pause.
    const sentinel = collector<unknown>()
    const other = reads.watchStore('kv', ['badge'], sentinel.listener)
    expect(await sentinel.next(1)).toBe(3)
    reads.unwatchStore(id)
    expect(released).toHaveBeenCalledTimes(1)
    await kvPut(db, 'badge', 4)
    await kvPut(db, 'badge', 5)
    await sentinel.until((v) => v === 5)
    expect(seen.values).toEqual([undefined, 3])
    reads.unwatchStore(other)
  })

  it('a profile read joins the stored detail, the list copy and the like state', async () => {
    const reads = watchHandlers(db)
    await db.profiles.put({ ...profile(7), seenAt: 1 })
    await db.likes.put({ id: 7, liked: true, serverLiked: true, confirmedAt: 1, order: 1 })
    const value = await reads.readStore('profile', 7)
    expect(value.base?.name).toBe('Member 7')
    expect(value.detail).toBeUndefined()
    expect(value.liked).toBe(true)
  })

  it('a cams read gives each tile the address of its click, from the endpoint table', async () => {
    const reads = watchHandlers(db)
    const cam = {
      account: 'anna & co',
      name: 'Anna',
      age: 25,
      gender: 'female' as const,
      online: true,
      thumb_url: '/t.jpg',
    }
    await db.cams.put({ key: 'f', cams: [cam], fetchedAt: 1 })
    const row = await reads.readStore('cams', 'f')
    expect(row?.cams).toEqual([{ ...cam, href: '/api/xcams/redirect.php?account=anna+%26+co' }])
    expect(await reads.readStore('cams', 'none')).toBeUndefined()
  })

  it('likedSet answers which of the ids are liked, as a Set', async () => {
    const reads = watchHandlers(db)
    await db.likes.bulkPut([
      { id: 1, liked: true, serverLiked: true, confirmedAt: 1, order: 1 },
      { id: 2, liked: false, serverLiked: true, confirmedAt: 1, order: 2 },
    ])
    expect(await reads.readStore('likedSet', [1, 2, 3])).toEqual(new Set([1]))
  })

  it('a messages watch answers one conversation in order, oldest first', async () => {
    const reads = watchHandlers(db)
    const msg = (key: string, conversation: number, order: number) => ({
      key,
      id: order,
      conversation,
      from: 1,
      text: key,
      sentAt: '2026-01-01T00:00:00.000Z',
      status: 'sent' as const,
      order,
    })
    await db.messages.bulkPut([msg('b', 5, 2), msg('a', 5, 1), msg('x', 6, 1)])
    const seen = collector<{ key: string }[]>()
    const id = reads.watchStore('messages', [5], seen.listener)
    expect((await seen.next(1))?.map((m) => m.key)).toEqual(['a', 'b'])
    await db.messages.put(msg('c', 5, 3))
    expect((await seen.next(2))?.map((m) => m.key)).toEqual(['a', 'b', 'c'])
    reads.unwatchStore(id)
  })

  it('stopping a watch twice, or one never started, releases its listener once and leaves the other watches running', async () => {
    const reads = watchHandlers(db)
    const stopped = collector<unknown>()
    const released = vi.fn()
    const id = reads.watchStore(
      'kv',
      ['badge'],
      Object.assign(stopped.listener, { [releaseProxy]: released }),
    )
    expect(await stopped.next(1)).toBeUndefined()
    // Started after the one stopped, it is also the sentinel: once it answers
    // for a second change, a watch still running would have answered for the
    // first (as in the test above).
    const kept = collector<unknown>()
    const other = reads.watchStore('kv', ['badge'], kept.listener)
    expect(await kept.next(1)).toBeUndefined()
    reads.unwatchStore(id)
    reads.unwatchStore(id)
    reads.unwatchStore(12345)
    expect(released).toHaveBeenCalledTimes(1)
    await kvPut(db, 'badge', 2)
    await kvPut(db, 'badge', 3)
    await kept.until((v) => v === 3)
    expect(stopped.values).toEqual([undefined])
    reads.unwatchStore(other)
  })
})
