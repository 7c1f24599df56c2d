// Test data: a few members made to measure (fast, no pictures), or the demo
// seed (pictures, likes, chats) for suites that need its conversations.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Db } from '../../db/client.ts'
import { conversationMembers, conversations, members } from '../../db/schema/index.ts'
import { seedDemo } from '../../db/seed/seed.ts'
import { hashPassword } from '../accounts/password.ts'
import { diskStore } from '../images/storage.ts'

export { DEMO_EMAIL, DEMO_PASSWORD } from '../../db/seed/people.ts'

/** The password of every member made by addMembers. */
export const TEST_PASSWORD = 'correct horse battery staple'

// argon2id costs ~50 ms by design: hash once per test file and share it.
let passwordHash: Promise<string> | undefined
export const testPasswordHash = () => {
  passwordHash ??= hashPassword(TEST_PASSWORD)
  return passwordHash
}

export type MemberRow = typeof members.$inferSelect
export type NewMember = Partial<typeof members.$inferInsert> & {
  /** Age today; ignored when dateOfBirth is given. Default 30. */
  age?: number
}

/**
 * YYYY-MM-DD of a birth `years` years before today (UTC), moved by
 * `dayOffset` days: offset 0 turns `years` today, +1 turns `years` tomorrow
 * (so is one year younger today), negative offsets are past birthdays.
 */
export function birthDate(years: number, dayOffset = 0, now = new Date()): string {
  const d = new Date(
    Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate() + dayOffset),
  )
  return d.toISOString().slice(0, 10)
}

/** Whole years between a YYYY-MM-DD birth date and today (UTC): the test's own oracle. */
export function ageToday(dateOfBirth: string, now = new Date()): number {
  const today = now.toISOString().slice(0, 10)
  const years = Number(today.slice(0, 4)) - Number(dateOfBirth.slice(0, 4))
  return today.slice(5) < dateOfBirth.slice(5) ? years - 1 : years
}

let serial = 0
/**
 * Members added so far to each database: their last activity steps back a
 * minute each. Per database, not per process: the test files of a worker
 * share this module (vitest.config.ts), and a count over all of them put a
 * later file's new members hours in the past (not "online now").
 */
const addedTo = new WeakMap<Db, number>()

/**
 * Inserts members with sensible defaults (a woman of 30 in NL, password
 * TEST_PASSWORD); returns the rows in the order given. lastActiveAt defaults
 * to one minute apart, newest first, so search order is predictable.
 */
export async function addMembers(db: Db, specs: NewMember[]): Promise<MemberRow[]> {
  if (specs.length === 0) return []
  const hash = await testPasswordHash()
  const now = Date.now()
  let added = addedTo.get(db) ?? 0
  const rows = specs.map(({ age, ...spec }) => {
    serial++
    added++
    return {
      email: `member-${serial}-${process.pid}@test.example`,
      passwordHash: hash,
      name: `Member ${serial}`,
      gender: 'female',
      country: 'NL',
      language: 'en',
      lastActiveAt: new Date(now - added * 60_000),
      ...spec,
      dateOfBirth: spec.dateOfBirth ?? birthDate(age ?? 30, -10),
    }
  })
  addedTo.set(db, added)
  const inserted = await db.insert(members).values(rows).returning()
  // RETURNING order is not promised by SQL: match on the unique email.
  const byEmail = new Map(inserted.map((r) => [r.email, r]))
  return rows.map((r) => byEmail.get(r.email)!)
}

export const addMember = async (db: Db, spec: NewMember = {}) => (await addMembers(db, [spec]))[0]!

/** A conversation between two members, with both as its members; its id. */
export async function addConversation(db: Db, a: number, b: number): Promise<number> {
  const [lo, hi] = [a, b].sort((x, y) => x - y) as [number, number]
  const [c] = await db
    .insert(conversations)
    .values({ memberLow: lo, memberHigh: hi })
    .returning({ id: conversations.id })
  await db.insert(conversationMembers).values([
    { conversationId: c!.id, memberId: lo },
    { conversationId: c!.id, memberId: hi },
  ])
  return c!.id
}

/** The demo seed (demo@example.com with likes and chats) over `members` others. */
export async function seedDemoData(db: Db, count = 40) {
  const mediaDir = await mkdtemp(join(tmpdir(), 'api-test-media-'))
  const result = await seedDemo(db, {
    pictures: diskStore(mediaDir),
    members: count,
    hashPassword,
    random: 42,
  })
  return {
    ...result,
    cleanup: () => rm(mediaDir, { recursive: true, force: true }),
  }
}

/** An images row of `memberId` (its `n`th picture, files named after `prefix`), approved unless said. */
export const pictureRow = (prefix: string, memberId: number, n: number, status = 'approved') => ({
  memberId,
  filename: `${prefix}${memberId}-${n}.jpg`,
  thumbFilename: `${prefix}${memberId}-${n}_t.jpg`,
  status,
})
