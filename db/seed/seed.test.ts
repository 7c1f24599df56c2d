import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, count, eq, gt } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../client.ts'
import { COUNTRIES, countryName, regionName } from '../reference/geo.ts'
import {
  conversationMembers,
  conversations,
  images,
  likes,
  members,
  messages,
} from '../schema/index.ts'
import { seedDemo } from './seed.ts'

/** The seed's pictures as files of `dir` (the API's disk store, without importing api/). */
const dirSink = (dir: string) => ({
  put: (name: string, bytes: Uint8Array) => writeFile(join(dir, name), bytes),
})

/** YYYY-MM-DD of today `years` years ago (UTC), comparable as a string. */
function yearsAgo(years: number): string {
  const now = new Date()
  const d = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate()))
  return d.toISOString().slice(0, 10)
}

// A stand-in for argon2: the seed only stores what it is given.
const hashPassword = async (pw: string) => `test-hash:${pw}`

describe('geo data', () => {
  it('has unique ISO 3166-2 region ids with 2-5 cities each', () => {
    const ids = COUNTRIES.flatMap((c) => c.regions.map((r) => r.id))
    expect(new Set(ids).size).toBe(ids.length)
    expect(COUNTRIES.map((c) => c.id).sort()).toEqual([
      'AT',
      'AU',
      'BE',
      'CA',
      'DE',
      'ES',
      'FR',
      'GB',
      'IE',
      'IT',
      'NL',
      'NZ',
      'PL',
      'US',
    ])
    for (const c of COUNTRIES) {
      for (const r of c.regions) {
        expect(r.id.startsWith(`${c.id}-`)).toBe(true)
        expect(r.cities.length).toBeGreaterThanOrEqual(2)
        expect(r.cities.length).toBeLessThanOrEqual(5)
      }
    }
    expect(COUNTRIES.find((c) => c.id === 'NL')?.regions).toHaveLength(12)
    expect(COUNTRIES.find((c) => c.id === 'DE')?.regions).toHaveLength(16)
  })
})

describe('seedDemo', () => {
  let database: Database
  let mediaDir: string
  let demoId: number

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite' })
    mediaDir = await mkdtemp(join(tmpdir(), 'seed-test-'))
    const result = await seedDemo(database.db, {
      pictures: dirSink(mediaDir),
      members: 60,
      hashPassword,
    })
    demoId = result.demoMemberId
    expect(result.members).toBe(60)
  })

  afterAll(async () => {
    await database?.close()
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
  })

  const total = async (table: typeof members | typeof images | typeof likes | typeof messages) =>
    (await database.db.select({ n: count() }).from(table))[0]?.n

  it('creates the demo member and the others, every one with a main image', async () => {
    expect(await total(members)).toBe(61)
    const [demo] = await database.db.select().from(members).where(eq(members.id, demoId))
    expect(demo).toMatchObject({
      email: 'demo@example.com',
      passwordHash: 'test-hash:demopassword',
      name: 'Demo',
      gender: 'male',
      country: 'NL',
      countryregion: 'NL-NH',
      city: 'Amsterdam',
      paidUser: false,
    })
    expect(demo?.activatedAt).toBeInstanceOf(Date)
    const others = await database.db.select().from(members)
    expect(others.every((m) => m.mainImageId !== null)).toBe(true)
    // All others share one hash, and it is not the demo password's.
    const hashes = new Set(others.filter((m) => m.id !== demoId).map((m) => m.passwordHash))
    expect(hashes.size).toBe(1)
    expect([...hashes][0]).not.toBe('test-hash:demopassword')
    expect(await total(images)).toBeGreaterThanOrEqual(61)
  })

  it('writes real JPEG files for the main image and its thumbnail', async () => {
    const [row] = await database.db
      .select({ filename: images.filename, thumb: images.thumbFilename })
      .from(images)
      .innerJoin(members, eq(members.mainImageId, images.id))
      .where(eq(members.id, demoId))
    expect(row?.filename).toMatch(/^[0-9a-f]{24}\.jpg$/)
    expect(row?.thumb).toBe(row?.filename.replace('.jpg', '_t.jpg'))
    for (const file of [row!.filename, row!.thumb]) {
      const bytes = await readFile(join(mediaDir, file))
      expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8])
    }
  })

  it('verifies every fourth real member a day after activation, never a fictional one', async () => {
    const rows = await database.db.select().from(members)
    for (const m of rows) {
      const index = Number(m.email.match(/^member(\d+)@/)?.[1] ?? -1)
      const expected = index > 0 && index % 4 === 0 && !m.fictional
      expect(m.verifiedAt !== null, m.email).toBe(expected)
      if (expected) expect(m.verifiedAt!.getTime() - m.activatedAt!.getTime()).toBe(86_400_000)
    }
    expect(rows.filter((m) => m.verifiedAt !== null).length).toBeGreaterThan(10)
  })

  it('gives members real places and plausible ages', async () => {
    const rows = await database.db.select().from(members)
    for (const m of rows) {
      const country = COUNTRIES.find((c) => c.id === m.country)
      const region = country?.regions.find((r) => r.id === m.countryregion)
      expect(region?.cities).toContain(m.city)
      expect(m.dateOfBirth <= yearsAgo(18)).toBe(true)
      expect(m.dateOfBirth > yearsAgo(81)).toBe(true)
    }
    expect(countryName('NL')).toBe('Netherlands')
    expect(regionName('NL-NH')).toBe('Noord-Holland')
  })

  it('has likes both ways for the demo member, some of them new', async () => {
    const given = await database.db.select().from(likes).where(eq(likes.likerId, demoId))
    const received = await database.db.select().from(likes).where(eq(likes.likedId, demoId))
    expect(given.length).toBeGreaterThan(0)
    expect(received.length).toBeGreaterThan(0)
    expect(received.some((l) => l.isNew)).toBe(true)
    expect(received.some((l) => !l.isNew)).toBe(true)
    expect(await total(likes)).toBeGreaterThan(given.length + received.length)
  })

  it('has conversations with messages and unread counts', async () => {
    const chats = await database.db.select().from(conversations)
    expect(chats.length).toBeGreaterThanOrEqual(3)
    for (const c of chats) {
      expect(c.memberLow).toBeLessThan(c.memberHigh)
      expect([c.memberLow, c.memberHigh]).toContain(demoId)
      expect(c.lastMessageAt).toBeInstanceOf(Date)
      const lines = await database.db
        .select()
        .from(messages)
        .where(eq(messages.conversationId, c.id))
      expect(lines.length).toBeGreaterThanOrEqual(3)
      expect(lines.length).toBeLessThanOrEqual(11)
    }
    const unread = await database.db
      .select()
      .from(conversationMembers)
      .where(and(eq(conversationMembers.memberId, demoId), gt(conversationMembers.unreadCount, 0)))
    expect(unread.length).toBe(2)
    expect((await database.db.select({ n: count() }).from(conversationMembers))[0]?.n).toBe(
      chats.length * 2,
    )
  })

  it('does nothing on a second run', async () => {
    const before = await Promise.all([total(members), total(images), total(likes), total(messages)])
    const again = await seedDemo(database.db, {
      pictures: dirSink(mediaDir),
      members: 60,
      hashPassword,
    })
    expect(again).toEqual({ demoMemberId: demoId, members: 60 })
    const after = await Promise.all([total(members), total(images), total(likes), total(messages)])
    expect(after).toEqual(before)
  })
})
