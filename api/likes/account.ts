// The member's likes when their account goes or is exported (api/accounts).
import { desc, eq, or } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { likes } from '../../db/schema/index.ts'

/**
 * Deletes the member's likes both ways in `tx`: a deleted account has no
 * likes, so other members' lists and counts never need to look it up
 * (likes.ts likesQuery).
 */
export async function dropLikesOf(tx: Db, memberId: number): Promise<void> {
  await tx.delete(likes).where(or(eq(likes.likerId, memberId), eq(likes.likedId, memberId)))
}

const iso = (d: Date) => d.toISOString()

/** The likes sections of the member's data export, newest first; the other member by id. */
export async function likesExport(db: Db, memberId: number) {
  const given = await db
    .select()
    .from(likes)
    .where(eq(likes.likerId, memberId))
    .orderBy(desc(likes.createdAt))
  const received = await db
    .select()
    .from(likes)
    .where(eq(likes.likedId, memberId))
    .orderBy(desc(likes.createdAt))
  return {
    given: given.map((l) => ({ member: l.likedId, at: iso(l.createdAt) })),
    received: received.map((l) => ({ member: l.likerId, at: iso(l.createdAt) })),
  }
}
