// The members a lander shows (spec §2 landers and member landing pages):
// real members with a photo, near the visitor (the geo-IP country of the
// settings, else the operator's), as public cards: name, age, city, photo.
import { and, desc, eq, gt, inArray, isNull, lte, ne, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { members } from '../../db/schema/index.ts'
import type { LanderMember, LanderMembersResponse, Settings } from '../contract/index.ts'
import { nicheGender } from '../contract/rules/niches.ts'
import { countryOptions } from '../contract/rules/search.ts'
import { guestPictureSql, imagesOf } from '../images/index.ts'
import { toProfile } from '../profiles/index.ts'
import { guestViewer, SIMILAR_AGE_WIDENING } from '../search/index.ts'

/** Enough for a collage of 12 and a feed, small enough for a phone's first screen. */
export const LANDER_MEMBERS = 24

const cards = async (db: Db, rows: (typeof members.$inferSelect)[]): Promise<LanderMember[]> => {
  // A lander is a guest's page: reviewed pictures only.
  const imgs = await imagesOf(
    db,
    rows.map((r) => r.id),
    { guest: true },
  )
  return rows.flatMap((r) => {
    const p = toProfile(r, imgs.get(r.id) ?? [])
    if (!p.main_image) return []
    const { id, name, age, city, country, gender, fictional } = p
    return [{ id, name, age, city, country, gender, thumb: p.main_image.thumb_filename, fictional }]
  })
}

const birthBefore = (years: number) => {
  const d = new Date()
  d.setUTCFullYear(d.getUTCFullYear() - years)
  return d.toISOString().slice(0, 10)
}

export async function landerMembers(
  db: Db,
  settings: Settings,
  memberId: number | undefined,
): Promise<LanderMembersResponse> {
  const { country } = guestViewer(settings, undefined)
  let member: LanderMember | null = null
  let similar: SQL | undefined
  if (memberId !== undefined) {
    const [row] = await db
      .select()
      .from(members)
      .where(and(eq(members.id, memberId), isNull(members.deletedAt)))
    member = row ? ((await cards(db, [row]))[0] ?? null) : null
    if (row) {
      // Spec §4 similar: same gender, age widened by 5 years each way.
      const age = toProfile(row, []).age
      similar = and(
        ne(members.id, row.id),
        eq(members.gender, row.gender),
        lte(members.dateOfBirth, birthBefore(age - SIMILAR_AGE_WIDENING)),
        gt(members.dateOfBirth, birthBefore(age + SIMILAR_AGE_WIDENING + 1)),
      )
    }
  }
  const rows = await db
    .select()
    .from(members)
    .where(
      and(
        isNull(members.deletedAt),
        guestPictureSql(sql`${members.id}`),
        inArray(members.country, countryOptions(country)),
        // The member's similar ones, else the members the site's niche shows a guest.
        similar ?? eq(members.gender, nicheGender(settings.niche, null)),
      ),
    )
    // Recent activity as others may know it: a member who hides when they
    // were online by their sign-up time (docs/search.md).
    .orderBy(desc(members.publicActiveAt), desc(members.id))
    .limit(LANDER_MEMBERS)
  return { country, member, members: await cards(db, rows) }
}
