// A member as every domain reads one: the row of a member who has not been
// deleted. The account rules (sign-up, deletion, the User answer) are
// api/accounts/'s; this read is shared so that profiles, chats, search and
// cams need not reach into the accounts domain for it.
import { and, eq, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { members } from '../../db/schema/index.ts'

export type MemberRow = typeof members.$inferSelect

/** The member's row, or undefined when there is none or it was deleted. */
export async function liveMember(db: Db, id: number): Promise<MemberRow | undefined> {
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.id, id), isNull(members.deletedAt)))
  return row
}
