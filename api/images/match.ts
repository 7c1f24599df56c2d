// The same photo on two accounts (docs/trust.md, "Stolen or reused photos"):
// a 64-bit perceptual hash of every upload and, at upload, the closest
// picture of another account within PHASH_MATCH_BITS of it.
import { type SQL, sql } from 'drizzle-orm'
import sharp from 'sharp'
import phash from 'sharp-phash'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { rowsOf } from '../shared/rows.ts'

/**
 * Two pictures are the same photo when their hashes differ in at most this
 * many of their 64 bits. A re-encoded, resized or recompressed copy differs
 * in 0 to 2 bits; unrelated photos in about 32 (half the bits). 6 leaves room
 * for a light edit (brightness, a border) and stays far from chance: two
 * unrelated random hashes come within 6 bits fewer than once in 10^11 pairs.
 */
export const PHASH_MATCH_BITS = 6

/**
 * The greyscale spread (standard deviation, 0 to 255) under which a picture
 * is too flat to hash: its hash is noise, and every blank or single-colour
 * picture would match every other.
 */
const FLAT_STDEV = 4

/**
 * The picture's perceptual hash (sharp-phash: the DCT of a 32 × 32
 * greyscale reduction, 64 low frequencies against their mean) as a signed
 * bigint, the column's type; null for a flat picture.
 */
export async function photoHash(picture: Buffer): Promise<bigint | null> {
  const { channels } = await sharp(picture).greyscale().resize(32, 32, { fit: 'fill' }).stats()
  if ((channels[0]?.stdev ?? 0) < FLAT_STDEV) return null
  return BigInt.asIntN(64, BigInt(`0b${await phash(picture)}`))
}

const MatchRow = z.object({
  ord: z.coerce.number(),
  image_id: z.coerce.number(),
  member_id: z.coerce.number(),
  banned: z.boolean(),
})

export interface PhotoMatch {
  /** The other account's picture and the account. */
  imageId: number
  memberId: number
  /** That account is banned (bannedSql): the new picture is held. */
  banned: boolean
}

/**
 * For each of `hashes` (in order), the closest picture of another account
 * than `memberId` within PHASH_MATCH_BITS, a banned account's first; null
 * for no match or no hash. One statement for all of them: a scan of the
 * hashed pictures, bit_count of the xor (PostgreSQL 14 and later).
 * `bannedSql` says whether a member is banned (the moderation domain's rule,
 * handed in by the app: it builds on this one).
 */
export async function photoMatches(
  db: Db,
  memberId: number,
  hashes: (bigint | null)[],
  bannedSql: (member: SQL) => SQL = () => sql`false`,
): Promise<(PhotoMatch | null)[]> {
  const known = hashes.flatMap((h, i) => (h === null ? [] : [{ h, i }]))
  if (known.length === 0) return hashes.map(() => null)
  const list = `{${known.map((k) => k.h.toString()).join(',')}}`
  const ords = `{${known.map((k) => k.i).join(',')}}`
  const distance = sql`bit_count((i.phash # n.h)::bit(64))`
  const rows = await rowsOf(
    db,
    sql`
    SELECT DISTINCT ON (n.ord) n.ord::int AS ord, i.id::int AS image_id,
      i.member_id::int AS member_id, ${bannedSql(sql`i.member_id`)} AS banned
    FROM unnest(${list}::bigint[], ${ords}::int[]) AS n(h, ord)
    JOIN images i ON i.phash IS NOT NULL AND i.member_id <> ${memberId}
      AND ${distance} <= ${PHASH_MATCH_BITS}
    ORDER BY n.ord, banned DESC, ${distance}, i.id`,
    MatchRow,
  )
  const byOrd = new Map(rows.map((r) => [r.ord, r]))
  return hashes.map((_, i) => {
    const r = byOrd.get(i)
    return r ? { imageId: r.image_id, memberId: r.member_id, banned: r.banned } : null
  })
}
