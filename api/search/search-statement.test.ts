// A search's page, count and pictures in one statement (searchQuery): it
// answers exactly what the earlier path answered (the page, the capped count
// and the pictures as three reads), kept here as the oracle, byte for byte,
// over pages, filters, blocks, ties and guests; other members' pending
// pictures are never in it; and a search with a full first page is one
// statement on the database.
import { count, desc, eq, inArray, type Logger, type SQL } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Db } from '../../db/client.ts'
import * as schema from '../../db/schema/index.ts'
import { blocks, images, members } from '../../db/schema/index.ts'
import { type Profile, SEARCH_RESULT_CAP, SearchQuery } from '../contract/index.ts'
import { imagesOf } from '../images/index.ts'
import { profileColumns, toProfile } from '../profiles/profiles.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { addMember, addMembers, birthDate, type MemberRow, pictureRow } from '../test/seed.ts'
import { resolveFilters, search, searchWhere, type Viewer } from './search.ts'

const byActivity = [desc(members.publicActiveAt), desc(members.id)]

/** The earlier search reads: the page (whole rows), the capped count, then the pictures. */
async function oldSearch(
  db: Db,
  me: Viewer,
  raw: Record<string, string>,
): Promise<{ profiles: Profile[]; numResults: number }> {
  const q = SearchQuery.parse(raw)
  const where: SQL = searchWhere(me.id, resolveFilters(me, q, me.savedSearch))
  const offset = (q.page - 1) * q.pp
  const take = Math.min(q.pp, SEARCH_RESULT_CAP - offset)
  const ids = db
    .select({ id: members.id })
    .from(members)
    .where(where)
    .orderBy(...byActivity)
    .limit(take)
    .offset(offset)
  const capped = db
    .select({ id: members.id })
    .from(members)
    .where(where)
    .limit(SEARCH_RESULT_CAP)
    .as('capped')
  const [rows, [counted]] = await Promise.all([
    take > 0
      ? db
          .select(profileColumns)
          .from(members)
          .where(inArray(members.id, ids))
          .orderBy(...byActivity)
      : [],
    db.select({ n: count() }).from(capped),
  ])
  const imgs = await imagesOf(
    db,
    rows.map((r) => r.id),
  )
  return {
    profiles: rows.map((r) => toProfile(r, imgs.get(r.id) ?? [])),
    numResults: counted?.n ?? 0,
  }
}

/** Searches with full pages, short pages, empty pages and every filter. */
const QUERIES: Record<string, string>[] = [
  {},
  { page: '2' },
  { page: '5' },
  { page: '6' },
  { page: '40' },
  { pp: '7', page: '3' },
  { gender: 'male' },
  { country: 'BE' },
  { countryregion: 'NL-NH' },
  { countryregion: 'NL-NH', page: '2' },
  { min_age: '25', max_age: '30' },
  { min_age: '25', max_age: '30', page: '2' },
  { min_age: '99', max_age: '100' },
  { gender: 'female', country: 'NL', countryregion: 'NL-ZH', min_age: '30', max_age: '60' },
]

describeEngines('search in one statement on %s', (engine) => {
  let t: TestDatabase
  let me: MemberRow
  let blocker: MemberRow
  let women: MemberRow[]
  const pending: number[] = []

  beforeAll(async () => {
    t = await freshDatabase(engine)
    me = await addMember(t.db, { gender: 'male', country: 'NL' })
    blocker = await addMember(t.db, { gender: 'male', country: 'NL' })
    const at = Date.parse('2026-11-20T10:00:00Z')
    women = await addMembers(
      t.db,
      Array.from({ length: 70 }, (_, i) => ({
        gender: i % 10 === 9 ? ('male' as const) : ('female' as const),
        country: i % 8 === 7 ? 'BE' : 'NL',
        countryregion: i % 8 === 7 ? null : i % 3 === 0 ? 'NL-NH' : i % 3 === 1 ? 'NL-ZH' : null,
        dateOfBirth: birthDate(20 + (i % 45), i % 2),
        city: i % 4 === 0 ? null : `City ${i}`,
        personal: i % 5 === 0 ? null : `About ${i} "quoted" \u00e9 \u{1f600}`,
        fictional: i % 11 === 0,
        // Groups of three active in the same instant: the id breaks the tie.
        lastActiveAt: new Date(at - Math.floor(i / 3) * 60_000),
        deletedAt: i === 5 ? new Date() : null,
      })),
    )
    // Blocks either way hide members from me.
    await t.db.insert(blocks).values([
      { blockerId: me.id, blockedId: women[1]!.id },
      { blockerId: women[2]!.id, blockedId: me.id },
    ])
    const picture = (memberId: number, n: number, status = 'approved') =>
      pictureRow('s', memberId, n, status)
    const rows = await t.db
      .insert(images)
      .values(
        women.flatMap((w, i) =>
          i % 4 === 3
            ? []
            : [
                picture(w.id, 1, i % 3 === 0 ? 'pending' : 'approved'),
                picture(w.id, 2),
                ...(i % 2 === 0 ? [picture(w.id, 3, 'pending'), picture(w.id, 4)] : []),
              ],
        ),
      )
      .returning({ id: images.id, memberId: images.memberId, status: images.status })
    for (const r of rows) if (r.status === 'pending') pending.push(r.id)
    // Some main pictures that are not the member's first approved one.
    for (const w of women.filter((_, i) => i % 6 === 0)) {
      const last = rows.filter((r) => r.memberId === w.id && r.status === 'approved').at(-1)
      if (last) {
        await t.db.update(members).set({ mainImageId: last.id }).where(eq(members.id, w.id))
      }
    }
  })
  afterAll(() => t?.close())

  const guest: Viewer = { id: null, country: 'NL', gender: '', savedSearch: null }

  it('answers every search byte for byte as the earlier three reads did', async () => {
    let nonEmpty = 0
    for (const viewer of [me, blocker, guest]) {
      for (const raw of QUERIES) {
        const label = `viewer ${viewer.id} ${JSON.stringify(raw)}`
        const expected = await oldSearch(t.db, viewer, raw)
        const { response } = await search(t.db, viewer, SearchQuery.parse(raw))
        // The answer is JSON: compare its text, key order included.
        expect(JSON.stringify(response.profiles), label).toBe(JSON.stringify(expected.profiles))
        expect(response.paging.num_results, label).toBe(expected.numResults)
        if (expected.profiles.length > 0) nonEmpty++
      }
    }
    // The seed reaches full pages and empty ones, and the blocks matter.
    expect(nonEmpty).toBeGreaterThan(20)
    const mine = await search(t.db, me, SearchQuery.parse({}))
    const theirs = await search(t.db, blocker, SearchQuery.parse({}))
    expect(mine.response.paging.num_results).toBe(theirs.response.paging.num_results - 2)
    expect(mine.response.profiles).toHaveLength(12)
  })

  it('shows other members only their approved pictures, oldest first, never a pending one', async () => {
    const shown: Profile[] = []
    for (let page = 1; page <= 6; page++) {
      shown.push(
        ...(await search(t.db, me, SearchQuery.parse({ page: String(page) }))).response.profiles,
      )
    }
    expect(shown.length).toBeGreaterThan(40)
    const approved = await t.db
      .select({ id: images.id, memberId: images.memberId, thumb_filename: images.thumbFilename })
      .from(images)
      .where(eq(images.status, 'approved'))
      .orderBy(images.id)
    for (const p of shown) {
      expect(p.images, `member ${p.id}`).toEqual(
        approved
          .filter((a) => a.memberId === p.id)
          .map(({ id, thumb_filename }) => ({ id, thumb_filename })),
      )
    }
    const ids = shown.flatMap((p) => p.images.map((i) => i.id))
    expect(pending.length).toBeGreaterThan(10)
    expect(ids.filter((id) => pending.includes(id))).toEqual([])
    expect(shown.some((p) => p.images.length === 3)).toBe(true)
  })

  it('reads the page, the count and the pictures in one statement', async () => {
    const statements: string[] = []
    const logger: Logger = { logQuery: (query) => statements.push(query) }
    const client = (t.db as unknown as { $client: never }).$client
    const logged = (engine === 'pglite'
      ? drizzlePglite(client, { schema, logger })
      : drizzlePg(client, { schema, logger })) as unknown as Db
    // Full first pages (no similar results run), a later page, a page past the end.
    for (const raw of [{}, { page: '3' }, { page: '40' }, { countryregion: 'NL-NH' }]) {
      statements.length = 0
      const { response } = await search(logged, me, SearchQuery.parse(raw))
      expect(response.paging.num_results, JSON.stringify(raw)).toBeGreaterThanOrEqual(12)
      expect(statements, JSON.stringify(raw)).toHaveLength(1)
    }
  })

  it('still reads no page past the cap (LIMIT 0), and counts', async () => {
    const past = { page: String(Math.ceil(SEARCH_RESULT_CAP / 12) + 5) }
    const { response } = await search(t.db, me, SearchQuery.parse(past))
    expect(response.profiles).toEqual([])
    expect(response.paging.num_results).toBe((await oldSearch(t.db, me, past)).numResults)
    expect(response.paging.num_results).toBeGreaterThan(0)
  })
})
