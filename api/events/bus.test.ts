// The event bus with a LISTEN that can be cut at will (the PostgreSQL cut
// itself: api/events/listen-heal.test.ts): streams end while it is down, it
// listens again after a backoff with jitter, and subscribers are told to pull
// everything once it is back.
import { describe, expect, it, vi } from 'vitest'
import type { Listen } from '../../db/client.ts'
import type { Poke } from '../contract/index.ts'
import { scaled } from '../test/time-scale.ts'
import {
  CACHES_CHANNEL,
  createEventBus,
  LISTEN_RETRY,
  MEMBER_CHANNEL_PREFIX,
  memberChannel,
  retryDelayMs,
} from './bus.ts'

/**
 * A LISTEN whose connection the test cuts, and whose next tries it can
 * refuse. Like PostgreSQL, it passes on a notification only on a channel the
 * connection listens on.
 */
function fakeListen() {
  const tries: number[] = []
  let refuse = 0
  let current:
    | {
        onPayload: (p: string, channel: string) => void
        onLost?: (e: Error) => void
        listened: Set<string>
      }
    | undefined
  /** What each try listened on first, and each change after: [added, removed]. */
  const channels: (string | readonly string[])[] = []
  const changes: [readonly string[], readonly string[]][] = []
  const listen: Listen = async (channel, onPayload, onLost) => {
    tries.push(Date.now())
    channels.push(channel)
    if (refuse > 0) {
      refuse--
      throw new Error('connection refused')
    }
    const me = {
      onPayload,
      onLost,
      listened: new Set(typeof channel === 'string' ? [channel] : channel),
    }
    current = me
    return {
      async change(add, remove) {
        changes.push([add, remove])
        for (const c of add) me.listened.add(c)
        for (const c of remove) me.listened.delete(c)
      },
      async stop() {
        if (current === me) current = undefined
      },
    }
  }
  const send = (channel: string, payload: string) => {
    if (current?.listened.has(channel)) current.onPayload(payload, channel)
  }
  return {
    listen,
    tries,
    channels,
    changes,
    listened: () => [...(current?.listened ?? [])].sort(),
    refuseNext(n: number) {
      refuse = n
    },
    cut() {
      const c = current
      current = undefined
      c?.onLost?.(new Error('terminating connection due to administrator command'))
    },
    notify(m: number, poke: Poke) {
      send(memberChannel(m), JSON.stringify(poke))
    },
    cacheChange(cache: string) {
      send(CACHES_CHANNEL, cache)
    },
  }
}

const QUICK = { firstMs: 20, maxMs: 80 }

async function until(what: string, done: () => boolean, ms = scaled(5000)): Promise<void> {
  const end = Date.now() + ms
  while (!done()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

describe('event bus LISTEN', () => {
  it('waits 0.5 s doubling to 10 s between tries, each between half of that and all of it', () => {
    expect(LISTEN_RETRY).toEqual({ firstMs: 500, maxMs: 10_000 })
    const top = () => 0.999_999
    const bottom = () => 0
    expect([0, 1, 2, 3, 4, 5, 9, 60].map((n) => retryDelayMs(n, LISTEN_RETRY, top))).toEqual([
      500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000,
    ])
    expect([0, 1, 5].map((n) => retryDelayMs(n, LISTEN_RETRY, bottom))).toEqual([250, 500, 5000])
  })

  it('ends the streams when LISTEN is cut, listens again, and tells the others to pull everything', async () => {
    const fake = fakeListen()
    const lines: string[] = []
    const bus = createEventBus(fake.listen, { retry: QUICK, log: (l) => lines.push(l) })
    await bus.ready()
    expect(bus.state).toBe('up')
    const pokes: Poke[] = []
    let streamEnded = 0
    const leaveStream = bus.subscribe(
      7,
      () => undefined,
      () => {
        streamEnded++
        leaveStream()
      },
    )
    const leave = bus.subscribe(7, (p) => pokes.push(p))
    await bus.ready(7)
    fake.notify(7, { type: 'likes' })
    expect(pokes).toEqual([{ type: 'likes' }])

    // Two refused tries after the cut: the waits grow.
    fake.refuseNext(2)
    fake.cut()
    expect(bus.state).toBe('down')
    expect(streamEnded).toBe(1)
    expect(bus.streams).toBe(1)
    // A stream opened now gets no pokes: ready() says so at once.
    await expect(bus.ready()).rejects.toThrow()
    await until('LISTEN back', () => bus.state === 'up')
    expect(fake.tries).toHaveLength(4)
    // The member's channel is listened to again before the pull-everything poke.
    await until('the sync poke', () => pokes.length === 2)
    expect(fake.listened()).toEqual([CACHES_CHANNEL, memberChannel(7)])
    expect(pokes).toEqual([{ type: 'likes' }, { type: 'sync' }])
    fake.notify(7, { type: 'chats' })
    expect(pokes.at(-1)).toEqual({ type: 'chats' })
    expect(lines.some((l) => l.includes('LISTEN connection lost'))).toBe(true)
    expect(lines.some((l) => l.includes('listening again after'))).toBe(true)
    leave()
    await bus.close()
    expect(bus.state).toBe('closed')
  })

  it('tells cache listeners what changed on the caches channel, and to drop everything when LISTEN is (back) in place', async () => {
    const fake = fakeListen()
    const bus = createEventBus(fake.listen, { retry: QUICK, log: () => undefined })
    const changes: (string | null)[] = []
    const leave = bus.onCacheChange((cache) => changes.push(cache))
    await bus.ready()
    // The connection starts on the caches' channel; members' channels come with their streams.
    expect(fake.channels).toEqual([CACHES_CHANNEL])
    expect(changes).toEqual([null])
    fake.cacheChange('message_cost')
    expect(changes).toEqual([null, 'message_cost'])
    // A cache change is no poke, and a poke no cache change.
    const pokes: Poke[] = []
    const leaveStream = bus.subscribe(7, (p) => pokes.push(p))
    await bus.ready(7)
    fake.notify(7, { type: 'likes' })
    expect(changes).toHaveLength(2)
    expect(pokes).toEqual([{ type: 'likes' }])
    // Changes sent while LISTEN was down were missed: every cache is dropped.
    fake.cut()
    await until('LISTEN back', () => bus.state === 'up')
    expect(changes).toEqual([null, 'message_cost', null])
    leave()
    fake.cacheChange('message_cost')
    expect(changes).toHaveLength(3)
    leaveStream()
    await bus.close()
  })

  it('fails ready() when the first try fails, and keeps trying', async () => {
    const fake = fakeListen()
    fake.refuseNext(1)
    const bus = createEventBus(fake.listen, { retry: QUICK, log: () => undefined })
    await expect(bus.ready()).rejects.toThrow('connection refused')
    expect(bus.state).toBe('down')
    await until('LISTEN up', () => bus.state === 'up')
    await expect(bus.ready()).resolves.toBeUndefined()
    await bus.close()
  })

  it('drain() ends every stream and every later one; close() stops trying', async () => {
    const fake = fakeListen()
    const bus = createEventBus(fake.listen, { retry: QUICK, log: () => undefined })
    await bus.ready()
    let ended = 0
    const leave = bus.subscribe(
      1,
      () => undefined,
      () => {
        ended++
        leave()
      },
    )
    bus.drain()
    expect(ended).toBe(1)
    expect(bus.streams).toBe(0)
    await expect(bus.ready()).rejects.toThrow('stopping')

    // The bus's timers are the test's: after close() no retry is due, and
    // running every timer there will ever be tries nothing more (no pause
    // standing in for "no try came").
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      fake.refuseNext(100)
      fake.cut()
      expect(vi.getTimerCount(), 'a retry is due after the cut').toBe(1)
      await bus.close()
      const tries = fake.tries.length
      expect(vi.getTimerCount(), 'no retry is due after close()').toBe(0)
      await vi.runAllTimersAsync()
      expect(fake.tries).toHaveLength(tries)
    } finally {
      vi.useRealTimers()
    }
  })

  it("listens only on the channels of members with a stream here: the first stream adds one, the last one's end removes it", async () => {
    expect(MEMBER_CHANNEL_PREFIX).toBe('member_events_')
    expect(memberChannel(42)).toBe('member_events_42')
    const fake = fakeListen()
    const bus = createEventBus(fake.listen, { retry: QUICK, log: () => undefined })
    await bus.ready()
    expect(fake.listened()).toEqual([CACHES_CHANNEL])
    const pokes: [number, Poke][] = []
    const first = bus.subscribe(7, (p) => pokes.push([7, p]))
    const second = bus.subscribe(7, (p) => pokes.push([7, p]))
    const other = bus.subscribe(8, (p) => pokes.push([8, p]))
    await bus.ready(7)
    await bus.ready(8)
    // The joins of one tick went out as one change.
    expect(fake.changes).toEqual([[[memberChannel(7), memberChannel(8)], []]])
    expect(bus.channels).toBe(2)
    // A member with no stream here is not listened to: their pokes never reach this process.
    fake.notify(9, { type: 'likes' })
    fake.notify(7, { type: 'chats' })
    expect(pokes).toEqual([
      [7, { type: 'chats' }],
      [7, { type: 'chats' }],
    ])
    // One of member 7's two streams leaves: the channel stays.
    first()
    await bus.ready()
    expect(fake.changes).toHaveLength(1)
    // The last one leaves: UNLISTEN.
    second()
    await bus.ready()
    expect(fake.changes.at(-1)).toEqual([[], [memberChannel(7)]])
    expect(fake.listened()).toEqual([CACHES_CHANNEL, memberChannel(8)])
    expect(bus.channels).toBe(1)
    // Joining and leaving within one tick sends nothing.
    const brief = bus.subscribe(10, () => undefined)
    brief()
    await bus.ready()
    expect(fake.changes).toHaveLength(2)
    other()
    await bus.close()
  })

  it("answers ready(member) only once the member's LISTEN is in place", async () => {
    const fake = fakeListen()
    const bus = createEventBus(fake.listen, { retry: QUICK, log: () => undefined })
    await bus.ready()
    const pokes: Poke[] = []
    const leave = bus.subscribe(5, (p) => pokes.push(p))
    // Before the change went out, a poke of member 5 would be lost.
    expect(fake.listened()).toEqual([CACHES_CHANNEL])
    await bus.ready(5)
    expect(fake.listened()).toEqual([CACHES_CHANNEL, memberChannel(5)])
    fake.notify(5, { type: 'likes' })
    expect(pokes).toEqual([{ type: 'likes' }])
    leave()
    await bus.close()
  })

  it('a stream that joins before LISTEN is up is listened to when it comes up', async () => {
    const fake = fakeListen()
    const bus = createEventBus(fake.listen, { retry: QUICK, log: () => undefined })
    const pokes: Poke[] = []
    const leave = bus.subscribe(3, (p) => pokes.push(p))
    await bus.ready(3)
    fake.notify(3, { type: 'likes' })
    expect(pokes).toEqual([{ type: 'likes' }])
    leave()
    await bus.close()
  })
})
