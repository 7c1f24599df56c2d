// Fan-out that does not grow with everyone (docs/capacity.md, "Fan-out"):
// two processes on one PostgreSQL, each LISTENing through its own
// connection, and a poke reaches only the process that holds the member's
// stream. What arrives is counted where PostgreSQL hands it to the process
// (db/listen.ts passes on everything its connection receives), so a count of
// zero means the database never woke that process. PostgreSQL only: PGlite
// is one process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Listen } from '../../db/client.ts'
import type { Poke } from '../contract/index.ts'
import { freshDatabase, type TestDatabase } from '../test/databases.ts'
import { addMember } from '../test/seed.ts'
import {
  CACHES_CHANNEL,
  createEventBus,
  type EventBus,
  memberChannel,
  notifyMembers,
} from './bus.ts'

const suite = process.env.DATABASE_URL ? describe : describe.skip
const title = process.env.DATABASE_URL
  ? 'pokes between two processes'
  : 'pokes between two processes (set DATABASE_URL to run it)'

/** A process's LISTEN, counting every notification its connection receives, by channel. */
function counted(listen: Listen) {
  const received = new Map<string, number>()
  const counting: Listen = (channel, onPayload, onLost) =>
    listen(
      channel,
      (payload, c) => {
        received.set(c, (received.get(c) ?? 0) + 1)
        onPayload(payload, c)
      },
      onLost,
    )
  const memberNotifications = () =>
    [...received].filter(([c]) => c !== CACHES_CHANNEL).reduce((n, [, k]) => n + k, 0)
  return { listen: counting, received, memberNotifications }
}

suite(title, () => {
  let t: TestDatabase
  const a = {
    counter: undefined as unknown as ReturnType<typeof counted>,
    bus: undefined as unknown as EventBus,
  }
  const b = {
    counter: undefined as unknown as ReturnType<typeof counted>,
    bus: undefined as unknown as EventBus,
  }
  beforeAll(async () => {
    t = await freshDatabase('postgres')
    for (const p of [a, b]) {
      p.counter = counted(t.listen)
      p.bus = createEventBus(p.counter.listen)
      await p.bus.ready()
    }
  })
  afterAll(async () => {
    await a.bus?.close()
    await b.bus?.close()
    await t?.close()
  })

  /** Pokes each member in one committed transaction; waits until the receivers have them all. */
  async function poke(members: number[], arrived: () => boolean): Promise<void> {
    await t.db.transaction((tx) => notifyMembers(tx, members, { type: 'messages' }))
    await expect.poll(arrived).toBe(true)
  }

  it("a poke wakes only the process that holds the member's stream", async () => {
    const x = await addMember(t.db)
    const y = await addMember(t.db)
    const nobody = await addMember(t.db)
    const atA: Poke[] = []
    const atB: Poke[] = []
    const leaveA = a.bus.subscribe(x.id, (p) => atA.push(p))
    const leaveB = b.bus.subscribe(y.id, (p) => atB.push(p))
    await a.bus.ready(x.id)
    await b.bus.ready(y.id)
    try {
      // A poke of x, of a member online nowhere, then one of y: each process
      // has its own member's poke, and the database sent it nothing else.
      await t.db.transaction((tx) => notifyMembers(tx, [x.id], { type: 'likes' }))
      await t.db.transaction((tx) => notifyMembers(tx, [nobody.id], { type: 'likes' }))
      await poke([y.id], () => atB.length === 1)
      await expect.poll(() => atA.length).toBe(1)
      expect(atA).toEqual([{ type: 'likes' }])
      expect(atB).toEqual([{ type: 'messages' }])
      expect([...a.counter.received.keys()].filter((c) => c !== CACHES_CHANNEL)).toEqual([
        memberChannel(x.id),
      ])
      expect([...b.counter.received.keys()].filter((c) => c !== CACHES_CHANNEL)).toEqual([
        memberChannel(y.id),
      ])
      expect(a.counter.memberNotifications()).toBe(1)
      expect(b.counter.memberNotifications()).toBe(1)
    } finally {
      leaveA()
      leaveB()
    }
    // Gone from A: its channel is UNLISTENed, and x's next poke wakes nobody.
    await a.bus.ready()
    expect(a.bus.channels).toBe(0)
    await t.db.transaction((tx) => notifyMembers(tx, [x.id], { type: 'likes' }))
    // y's poke after it on B arriving means x's, sent before, would have arrived at A by now.
    const again: Poke[] = []
    const leave = b.bus.subscribe(y.id, (p) => again.push(p))
    await b.bus.ready(y.id)
    await poke([y.id], () => again.length === 1)
    leave()
    expect(a.counter.memberNotifications()).toBe(1)
  })

  it('a burst to 500 members wakes each process for its own half only', async () => {
    const members = await Promise.all(Array.from({ length: 500 }, () => addMember(t.db)))
    const beforeA = a.counter.memberNotifications()
    const beforeB = b.counter.memberNotifications()
    const got = new Set<number>()
    const leaves = members.map((m, i) =>
      (i % 2 === 0 ? a : b).bus.subscribe(m.id, () => got.add(m.id)),
    )
    try {
      await a.bus.ready()
      await b.bus.ready()
      expect(a.bus.channels).toBe(250)
      expect(b.bus.channels).toBe(250)
      await poke(
        members.map((m) => m.id),
        () => got.size === 500,
      )
      expect(a.counter.memberNotifications() - beforeA).toBe(250)
      expect(b.counter.memberNotifications() - beforeB).toBe(250)
    } finally {
      for (const leave of leaves) leave()
    }
  })
})
