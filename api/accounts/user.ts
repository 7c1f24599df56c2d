import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { members } from '../../db/schema/index.ts'
import type { Image, User } from '../contract/index.ts'
import { imagesOf } from '../images/index.ts'
import { toOwnProfile } from '../profiles/index.ts'
import { liveMember, type MemberRow } from '../shared/members.ts'

export { liveMember, type MemberRow }

/** Spec §3 User of a member row. */
export async function toUser(db: Db, row: MemberRow): Promise<User> {
  // The member's own answer: their pending pictures too, marked.
  return userOf(row, (await imagesOf(db, [row.id], { own: true })).get(row.id) ?? [])
}

/** Spec §3 User of a member row and their own pictures (pending ones marked). */
export function userOf(row: MemberRow, imgs: Image[]): User {
  const profile = toOwnProfile(row, imgs)
  return {
    email: row.email,
    profile,
    main_image: profile.main_image,
    paid_user: row.paidUser,
    signup_date: row.signupDate.toISOString(),
    mailprovider: row.mailprovider,
    fictional_icon: row.fictional,
  }
}

/** The page-hidden beacon (spec §7): the member's last activity, which orders search results. */
export async function markActive(db: Db, memberId: number): Promise<void> {
  await db.update(members).set({ lastActiveAt: new Date() }).where(eq(members.id, memberId))
}
