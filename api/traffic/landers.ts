// The members a lander shows (spec §2 landers and member landing pages):
// real members with a photo, near the visitor (the geo-IP country of the
// settings, else the operator's), as public cards: name, age, city, photo.
import type { Db } from '../../db/client.ts'
import type { LanderMember, LanderMembersResponse, Settings } from '../contract/index.ts'
import { nicheGender } from '../contract/rules/niches.ts'
import { countryOptions } from '../contract/rules/search.ts'
import { imagesOf } from '../images/index.ts'
import { toProfile } from '../profiles/index.ts'
import { guestViewer, landerRows, SIMILAR_AGE_WIDENING } from '../search/index.ts'
import { liveMember, type MemberRow } from '../shared/members.ts'

/** Enough for a collage of 12 and a feed, small enough for a phone's first screen. */
export const LANDER_MEMBERS = 24

const cards = async (db: Db, rows: MemberRow[]): Promise<LanderMember[]> => {
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
  const countries = countryOptions(country)
  const row = memberId === undefined ? undefined : await liveMember(db, memberId)
  const member = row ? ((await cards(db, [row]))[0] ?? null) : null
  // Spec §4 similar: same gender, age widened by 5 years each way; without
  // a member, the members the site's niche shows a guest.
  const age = row ? toProfile(row, []).age : 0
  const rows = await landerRows(
    db,
    row
      ? {
          countries,
          gender: row.gender,
          except: row.id,
          born: {
            onOrBefore: birthBefore(age - SIMILAR_AGE_WIDENING),
            after: birthBefore(age + SIMILAR_AGE_WIDENING + 1),
          },
        }
      : { countries, gender: nicheGender(settings.niche, null) },
    LANDER_MEMBERS,
  )
  return { country, member, members: await cards(db, rows) }
}
