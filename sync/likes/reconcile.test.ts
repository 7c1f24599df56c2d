// The pure likes reconciliation: a table of cases, then a randomized run with
// a seeded PRNG (fast-check is not installed) that plays a member, an outbox,
// a server and polls answering late and out of order, and checks after every
// step that the member sees exactly the server's state with the pending
// actions applied, and that everything converges once the outbox is empty.
import { describe, expect, it } from 'vitest'
import type { LikedByRow, LikeRow } from '../store/store.ts'
import {
  givenOrder,
  isStaleSnapshot,
  likeRow,
  type PendingLike,
  receivedOrder,
  reconcileGiven,
  reconcileReceived,
  shownLiked,
} from './reconcile.ts'

const like = (profile: number, createdAt: number): PendingLike => ({
  kind: 'like',
  profile,
  createdAt,
})
const unlike = (profile: number, createdAt: number): PendingLike => ({
  kind: 'unlike',
  profile,
  createdAt,
})
const row = (id: number, over: Partial<LikeRow> = {}): LikeRow => ({
  id,
  liked: true,
  serverLiked: true,
  confirmedAt: 10,
  order: 0,
  ...over,
})

describe('shownLiked', () => {
  it.each<[string, boolean, PendingLike[], boolean]>([
    ['server state without pending actions', true, [], true],
    ['server state without pending actions (not liked)', false, [], false],
    ['a pending like', false, [like(1, 1)], true],
    ['a pending unlike', true, [unlike(1, 1)], false],
    ['like then unlike: the newest wins', false, [like(1, 1), unlike(1, 2)], false],
    ['unlike then like', true, [unlike(1, 1), like(1, 2)], true],
    ['a like the server already has', true, [like(1, 1)], true],
  ])('%s', (_, server, pending, shown) => {
    expect(shownLiked(server, pending)).toBe(shown)
  })
})

describe('reconcileGiven', () => {
  const cases: {
    name: string
    snapshot: { ids: number[]; requestedAt: number }
    local: LikeRow[]
    pending: PendingLike[]
    put: LikeRow[]
    remove: number[]
  }[] = [
    {
      name: 'a first snapshot fills the list in server order',
      snapshot: { ids: [5, 3], requestedAt: 20 },
      local: [],
      pending: [],
      put: [row(5, { confirmedAt: 20, order: 0 }), row(3, { confirmedAt: 20, order: 1 })],
      remove: [],
    },
    {
      name: 'a like gone from the server is removed',
      snapshot: { ids: [], requestedAt: 20 },
      local: [row(5)],
      pending: [],
      put: [],
      remove: [5],
    },
    {
      name: 'a pending like stays shown though the server does not have it yet',
      snapshot: { ids: [], requestedAt: 20 },
      local: [row(5, { serverLiked: false, confirmedAt: 0, order: -15 })],
      pending: [like(5, 15)],
      put: [row(5, { serverLiked: false, confirmedAt: 20, order: -15 })],
      remove: [],
    },
    {
      name: 'a pending unlike hides a like the server still lists',
      snapshot: { ids: [5], requestedAt: 20 },
      local: [row(5, { liked: false })],
      pending: [unlike(5, 15)],
      put: [row(5, { liked: false, confirmedAt: 20, order: 0 })],
      remove: [],
    },
    {
      name: 'an unlike confirmed after the snapshot was asked for wins over it',
      snapshot: { ids: [5], requestedAt: 20 },
      local: [row(5, { liked: false, serverLiked: false, confirmedAt: 25 })],
      pending: [],
      put: [row(5, { liked: false, serverLiked: false, confirmedAt: 25 })],
      remove: [],
    },
    {
      name: 'a like confirmed at the same tick as the request counts as newer',
      snapshot: { ids: [], requestedAt: 20 },
      local: [row(5, { confirmedAt: 20, order: -18 })],
      pending: [],
      put: [row(5, { confirmedAt: 20, order: -18 })],
      remove: [],
    },
    {
      name: 'a like someone made on another device appears',
      snapshot: { ids: [7, 5], requestedAt: 30 },
      local: [row(5)],
      pending: [],
      put: [row(7, { confirmedAt: 30, order: 0 }), row(5, { confirmedAt: 30, order: 1 })],
      remove: [],
    },
  ]
  it.each(cases)('$name', ({ snapshot, local, pending, put, remove }) => {
    const out = reconcileGiven(snapshot, local, pending)
    expect(out.put.sort((a, b) => a.order - b.order)).toEqual(put.sort((a, b) => a.order - b.order))
    expect(out.remove).toEqual(remove)
  })

  it('lists pending likes first, newest first, then the server order', () => {
    const { put } = reconcileGiven({ ids: [1, 2], requestedAt: 50 }, [], [like(8, 40), like(9, 45)])
    expect(givenOrder(put).map((r) => r.id)).toEqual([9, 8, 1, 2])
  })
})

describe('reconcileReceived', () => {
  const by = (id: number, over: Partial<LikedByRow> = {}): LikedByRow => ({
    id,
    likeNew: true,
    serverNew: true,
    confirmedAt: 10,
    createdAt: 'x',
    order: 0,
    ...over,
  })
  const snap = (rows: [number, boolean][], requestedAt = 20) => ({
    rows: rows.map(([id, isNew]) => ({ id, like_new: isNew, created_at: 'x' })),
    requestedAt,
  })

  it.each<[string, ReturnType<typeof snap>, LikedByRow[], number[], LikedByRow[]]>([
    [
      'takes the server list',
      snap([
        [4, true],
        [2, false],
      ]),
      [],
      [],
      [
        by(4, { confirmedAt: 20, order: 0 }),
        by(2, { likeNew: false, serverNew: false, confirmedAt: 20, order: 1 }),
      ],
    ],
    [
      'a pending like_seen keeps the flag cleared',
      snap([[4, true]]),
      [by(4, { likeNew: false })],
      [4],
      [by(4, { likeNew: false, confirmedAt: 20 })],
    ],
    [
      'a like_seen confirmed after the request wins over a stale new flag',
      snap([[4, true]]),
      [by(4, { likeNew: false, serverNew: false, confirmedAt: 30 })],
      [],
      [by(4, { likeNew: false, serverNew: false, confirmedAt: 30 })],
    ],
    ['a withdrawn like disappears', snap([]), [by(4)], [], []],
  ])('%s', (_, snapshot, local, seen, expected) => {
    expect(reconcileReceived(snapshot, local, new Set(seen))).toEqual(expected)
  })

  it('orders new likes first, then the server order', () => {
    const rows = [
      by(1, { likeNew: false, order: 0 }),
      by(2, { order: 1 }),
      by(3, { likeNew: false, order: 2 }),
      by(4, { order: 3 }),
    ]
    expect(receivedOrder(rows).map((r) => r.id)).toEqual([2, 4, 1, 3])
  })
})

describe('isStaleSnapshot', () => {
  it.each<[number, number | undefined, boolean]>([
    [10, undefined, false],
    [10, 10, false],
    [10, 11, true],
    [12, 11, false],
  ])('requested %i, last written %s → %s', (requested, last, stale) => {
    expect(isStaleSnapshot(requested, last)).toBe(stale)
  })
})

// ---- randomized: member, outbox, server and late polls ------------------------

/** mulberry32: a tiny seeded PRNG, so a failing run can be replayed by its seed. */
function prng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * The same steps sync/likes/likes.ts takes, on plain maps: enqueue = recompute the
 * row with the new pending action; a drain answer = settle or revert; a poll
 * = snapshot at request, reconcile at answer (skipped when stale).
 */
function simulate(seed: number, steps: number) {
  const rand = prng(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T
  const PROFILES = [1, 2, 3, 4]
  let clock = 1
  const server = new Set(PROFILES.filter(() => rand() < 0.5))
  const rows = new Map<number, LikeRow>()
  let pending: PendingLike[] = []
  const polls: { ids: number[]; requestedAt: number }[] = []
  let lastWritten: number | undefined
  /** Entries the server already applied (answer lost): a resend gets the first answer, never a 4xx. */
  const applied = new Set<number>()

  const recompute = (p: number) => {
    const r = rows.get(p)
    const next = likeRow(
      p,
      r?.serverLiked ?? false,
      r?.confirmedAt ?? 0,
      r?.serverLiked ? r.order : undefined,
      pending,
    )
    if (!next.liked && !next.serverLiked && !pending.some((x) => x.profile === p)) {
      if (r && r.confirmedAt === 0) rows.delete(p)
      else if (r) rows.set(p, next)
      return
    }
    rows.set(p, next)
  }
  const applyPoll = (snap: { ids: number[]; requestedAt: number }) => {
    if (isStaleSnapshot(snap.requestedAt, lastWritten)) return
    lastWritten = snap.requestedAt
    const out = reconcileGiven(snap, [...rows.values()], pending)
    for (const id of out.remove) rows.delete(id)
    for (const r of out.put) rows.set(r.id, r)
  }
  const check = (step: string) => {
    for (const p of PROFILES) {
      const expected = shownLiked(
        server.has(p),
        pending.filter((x) => x.profile === p),
      )
      const shown = rows.get(p)?.liked ?? false
      if (shown !== expected) {
        throw new Error(`seed ${seed}, after ${step}: profile ${p} shows ${shown}, not ${expected}`)
      }
    }
  }

  // The member's device starts from a full snapshot.
  applyPoll({ ids: [...server], requestedAt: clock++ })
  check('first poll')
  for (let i = 0; i < steps; i++) {
    const r = rand()
    let step: string
    if (r < 0.3) {
      const op = { kind: rand() < 0.5 ? 'like' : 'unlike', profile: pick(PROFILES) } as const
      pending.push({ ...op, createdAt: clock++ })
      recompute(op.profile)
      step = `${op.kind} ${op.profile}`
    } else if (r < 0.55 && pending.length > 0) {
      // The oldest entry reaches the server, which applies it.
      const [op, ...rest] = pending as [PendingLike, ...PendingLike[]]
      // The server applies an id once: a resend after a lost answer changes nothing.
      if (!applied.has(op.createdAt)) {
        if (op.kind === 'like') server.add(op.profile)
        else server.delete(op.profile)
        applied.add(op.createdAt)
      }
      if (rand() < 0.2) {
        step = 'answer lost (entry stays, resent later)'
      } else {
        pending = rest
        const before = rows.get(op.profile)
        const order = before?.serverLiked ? before.order : -op.createdAt
        rows.set(op.profile, likeRow(op.profile, server.has(op.profile), clock++, order, pending))
        step = `${op.kind} ${op.profile} confirmed`
      }
    } else if (r < 0.62 && pending.length > 0 && !applied.has(pending[0]!.createdAt)) {
      // Refused for good (4xx): dropped and reverted.
      const [op, ...rest] = pending as [PendingLike, ...PendingLike[]]
      pending = rest
      recompute(op.profile)
      step = `${op.kind} ${op.profile} refused`
    } else if (r < 0.8) {
      polls.push({ ids: [...server], requestedAt: clock++ })
      step = 'poll asked'
    } else if (polls.length > 0) {
      const k = Math.floor(rand() * polls.length)
      const [snap] = polls.splice(k, 1)
      applyPoll(snap!)
      step = `poll of ${snap!.requestedAt} answered`
    } else {
      step = 'nothing'
    }
    check(step)
  }
  // Everything drains, the late polls land, then one fresh poll: converged.
  for (const op of pending) {
    if (applied.has(op.createdAt)) continue
    if (op.kind === 'like') server.add(op.profile)
    else server.delete(op.profile)
  }
  const drained = pending
  pending = []
  for (const op of drained) {
    const before = rows.get(op.profile)
    rows.set(
      op.profile,
      likeRow(op.profile, server.has(op.profile), clock++, before?.order, pending),
    )
  }
  for (const snap of polls) applyPoll(snap)
  applyPoll({ ids: [...server], requestedAt: clock++ })
  const shown = [...rows.values()].filter((x) => x.liked).map((x) => x.id)
  expect(shown.sort()).toEqual([...server].sort())
  expect([...rows.values()].every((x) => x.liked === x.serverLiked)).toBe(true)
}

describe('randomized runs (seeded)', () => {
  it('shows the server state plus pending actions after every step, and converges', () => {
    for (let seed = 1; seed <= 400; seed++) simulate(seed, 60)
  })
})
