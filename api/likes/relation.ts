// What a profile answer says of the viewer's relation to the member (spec §3
// Profile: liked, liked_me): a read of the likes table, so it is the likes
// domain's. The profile route (api/profiles/routes.ts) gets it from
// api/app.ts (ProfileDeps.relation) instead of importing it, because likes
// builds its lists from the profiles domain's projection (likes -> profiles)
// and a reverse import would tie the two into a cycle.
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { likes } from '../../db/schema/index.ts'

/** Whether `viewer` liked `profile` and whether `profile` liked `viewer`, in one query. */
export async function likeFlags(
  db: Db,
  viewer: number,
  profile: number,
): Promise<{ liked: boolean; likedMe: boolean }> {
  const rows = await db
    .select({ liker: likes.likerId })
    .from(likes)
    .where(
      sql`(${likes.likerId} = ${viewer} AND ${likes.likedId} = ${profile})
        OR (${likes.likerId} = ${profile} AND ${likes.likedId} = ${viewer})`,
    )
  return {
    liked: rows.some((r) => r.liker === viewer),
    likedMe: rows.some((r) => r.liker === profile),
  }
}
