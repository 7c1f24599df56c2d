// What the member sees of likes, from what the server said and what is still
// waiting in the outbox. Pure functions, no Dexie: the sync code feeds them
// rows and writes back what they return (tested in sync/likes/reconcile.test.ts).
//
// Rules:
// - A profile shows the newest pending like/unlike for it; with none pending,
//   the server's state.
// - The server's state of a profile changes by a snapshot (GET /api/likes.php)
//   or by the answer to one of our actions. A snapshot requested before (or at
//   the same tick as) the latest answer about a profile is older than that
//   answer and loses for that profile: an unlike confirmed while a poll was
//   on its way must not come back from that poll.
import type { LikedByRow, LikeRow } from '../store/store.ts'

/** A like or unlike still waiting in the outbox, oldest first. */
export interface PendingLike {
  kind: 'like' | 'unlike'
  profile: number
  /** Outbox createdAt: strictly increasing, so it also orders the entries. */
  createdAt: number
}

/** The server's list of profiles the member liked, in its order, and when it was asked for. */
export interface GivenSnapshot {
  ids: number[]
  requestedAt: number
}

export interface ReceivedSnapshot {
  rows: { id: number; like_new: boolean; created_at: string }[]
  requestedAt: number
}

/**
 * Whether a snapshot is older than the one last written: two polls may be
 * out at once (the timer, a page asking) and answer in either order; the
 * older answer must not undo what the newer one settled (it would bring back
 * a like whose row the newer one already removed).
 */
export const isStaleSnapshot = (requestedAt: number, lastWrittenAt: number | undefined): boolean =>
  lastWrittenAt !== undefined && requestedAt < lastWrittenAt

/** The newest pending action wins; without one, the server's state. */
export function shownLiked(serverLiked: boolean, pending: readonly PendingLike[]): boolean {
  let liked = serverLiked
  for (const p of pending) liked = p.kind === 'like'
  return liked
}

/** Pending actions per profile, oldest first. */
function byProfile(pending: readonly PendingLike[]): Map<number, PendingLike[]> {
  const map = new Map<number, PendingLike[]>()
  const sorted = [...pending].sort((a, b) => a.createdAt - b.createdAt)
  for (const p of sorted) {
    const list = map.get(p.profile)
    if (list) list.push(p)
    else map.set(p.profile, [p])
  }
  return map
}

/**
 * Sort key of a like the server has not confirmed yet: negative, so pending
 * likes come before the server's list, the newest first.
 */
const pendingOrder = (ops: readonly PendingLike[]): number => {
  const lastLike = ops.filter((o) => o.kind === 'like').at(-1)
  return lastLike ? -lastLike.createdAt : 0
}

/** One profile's row after its server state or its pending actions changed. */
export function likeRow(
  id: number,
  serverLiked: boolean,
  confirmedAt: number,
  serverOrder: number | undefined,
  pending: readonly PendingLike[],
): LikeRow {
  const mine = pending.filter((p) => p.profile === id)
  const liked = shownLiked(serverLiked, mine)
  const order =
    serverLiked && serverOrder !== undefined && (mine.length === 0 || liked)
      ? serverOrder
      : pendingOrder(mine)
  return { id, liked, serverLiked, confirmedAt, order }
}

/**
 * Merges a snapshot of the server's likes-given list into the local rows.
 * Returns the rows to write and the ids to delete (rows nobody needs any
 * more: not liked, not pending, and no newer answer to protect).
 */
export function reconcileGiven(
  snapshot: GivenSnapshot,
  local: readonly LikeRow[],
  pending: readonly PendingLike[],
): { put: LikeRow[]; remove: number[] } {
  const ops = byProfile(pending)
  const serverIndex = new Map(snapshot.ids.map((id, i) => [id, i]))
  const localById = new Map(local.map((r) => [r.id, r]))
  const ids = new Set([...snapshot.ids, ...localById.keys(), ...ops.keys()])
  const put: LikeRow[] = []
  const remove: number[] = []
  for (const id of ids) {
    const row = localById.get(id)
    const mine = ops.get(id) ?? []
    // A local answer at or after the snapshot's request is newer: keep it.
    const keepLocal = row !== undefined && row.confirmedAt >= snapshot.requestedAt
    const serverLiked = keepLocal ? row.serverLiked : serverIndex.has(id)
    const confirmedAt = keepLocal ? row.confirmedAt : snapshot.requestedAt
    const order = serverIndex.get(id) ?? (keepLocal ? row.order : undefined)
    const next = likeRow(id, serverLiked, confirmedAt, order, mine)
    if (!next.liked && !next.serverLiked && mine.length === 0 && !keepLocal) {
      if (row) remove.push(id)
      continue
    }
    put.push(next)
  }
  return { put, remove }
}

/**
 * The received likes: the server's list replaces the local one, except that
 * a like_seen still pending (or confirmed after the snapshot was requested)
 * keeps the new flag cleared.
 */
export function reconcileReceived(
  snapshot: ReceivedSnapshot,
  local: readonly LikedByRow[],
  pendingSeen: ReadonlySet<number>,
): LikedByRow[] {
  const localById = new Map(local.map((r) => [r.id, r]))
  return snapshot.rows.map((r, order) => {
    const row = localById.get(r.id)
    const keepLocal = row !== undefined && row.confirmedAt >= snapshot.requestedAt
    const serverNew = keepLocal ? row.serverNew : r.like_new
    return {
      id: r.id,
      likeNew: serverNew && !pendingSeen.has(r.id),
      serverNew,
      confirmedAt: keepLocal ? row.confirmedAt : snapshot.requestedAt,
      createdAt: r.created_at,
      order,
    }
  })
}

/** Received likes as the likes page lists them: new first (spec §4), then the server's order. */
export function receivedOrder(rows: readonly LikedByRow[]): LikedByRow[] {
  return [...rows].sort((a, b) => Number(b.likeNew) - Number(a.likeNew) || a.order - b.order)
}

/** Given likes as the likes page lists them. */
export function givenOrder(rows: readonly LikeRow[]): LikeRow[] {
  return rows.filter((r) => r.liked).sort((a, b) => a.order - b.order || a.id - b.id)
}
