// The guest home's HTML carries the showcase's photos (docs/performance.md,
// "HTML that paints before JavaScript"): the server renders the home with what
// GET /api/showcase.php answers a guest, so only approved, reviewed,
// non-private photos of live members can reach it; a pending one, one that
// waits for its review, or a private one never does. The showcase is reused
// per host for a minute, so a guest's home hit sends no search but the first
// of that minute (its round trips pinned below). The render itself is a
// stand-in here that writes every photo of the seed as an <img>; the real
// render is e2e/home.e2e.ts's.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { images, members } from '../../db/schema/index.ts'
import { createServer } from '../server.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { countTrips } from '../test/round-trips.ts'
import { addMembers } from '../test/seed.ts'

const SHELL = '<!doctype html><title>Amora</title><div id="root"></div>'

/** A server render that shows the seed's showcase as images, and the seed's ids. */
const RENDERER = `export async function renderPage(url, seed) {
  if (new URL(url, 'http://x').pathname !== '/') return null
  return '<main>' + (seed.showcase ?? []).map((p) =>
    '<img data-member="' + p.id + '" src="/media/' + p.main_image.thumb_filename + '">').join('') +
    (seed.kv.packages ? '<p data-packages="' + seed.kv.packages.packages.length + '"></p>' : '') + '</main>'
}
`

describeEngines('the guest home showcase in the HTML on %s', (engine) => {
  let database: TestDatabase
  let dist: string
  let ssr: string
  let server: ReturnType<typeof createServer>
  const ids: Record<'shown' | 'pending' | 'unreviewed' | 'private', number> = {
    shown: 0,
    pending: 0,
    unreviewed: 0,
    private: 0,
  }
  const home = (host = 'localhost', cookie?: string) =>
    server.request(`http://${host}/`, {
      headers: {
        'user-agent': 'Mozilla/5.0 Chrome/140.0',
        'accept-language': 'en',
        ...(cookie ? { cookie } : {}),
      },
    })

  beforeAll(async () => {
    database = await freshDatabase(engine)
    const rows = await addMembers(
      database.db,
      Array.from({ length: 4 }, () => ({ gender: 'female' as const, country: 'NL' })),
    )
    const kinds = [
      ['shown', { status: 'approved', reviewed: true, private: false }],
      ['pending', { status: 'pending', reviewed: true, private: false }],
      ['unreviewed', { status: 'approved', reviewed: false, private: false }],
      ['private', { status: 'approved', reviewed: true, private: true }],
    ] as const
    for (const [i, [kind, photo]] of kinds.entries()) {
      const id = rows[i]!.id
      ids[kind] = id
      const [img] = await database.db
        .insert(images)
        .values({ memberId: id, filename: `${kind}.jpg`, thumbFilename: `${kind}-t.jpg`, ...photo })
        .returning()
      await database.db.update(members).set({ mainImageId: img!.id }).where(eq(members.id, id))
    }
    dist = mkdtempSync(join(tmpdir(), 'amora-dist-'))
    mkdirSync(join(dist, 'media'))
    writeFileSync(join(dist, 'index.html'), SHELL)
    for (const locale of ['en', 'nl', 'de', 'it', 'fr', 'es', 'pl']) {
      mkdirSync(join(dist, 'l', locale), { recursive: true })
      writeFileSync(join(dist, 'l', locale, 'lander.html'), SHELL)
    }
    ssr = mkdtempSync(join(tmpdir(), 'amora-ssr-'))
    writeFileSync(join(ssr, 'entry-server.js'), RENDERER)
    server = createServer({
      db: database.db,
      distDir: dist,
      ssrDir: ssr,
      mediaDir: join(dist, 'media'),
    })
  })

  afterAll(async () => {
    await database?.close()
    if (dist) rmSync(dist, { recursive: true, force: true })
    if (ssr) rmSync(ssr, { recursive: true, force: true })
  })

  it('puts the reviewed, approved, public photo into the HTML and its seed', async () => {
    const res = await home()
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain(`<img data-member="${ids.shown}" src="/media/shown-t.jpg">`)
    expect(html).toContain('"thumb_filename":"shown-t.jpg"')
  })

  it('never puts a pending, an unreviewed or a private photo, nor its member, into the HTML', async () => {
    const html = await (await home()).text()
    for (const kind of ['pending', 'unreviewed', 'private'] as const) {
      expect(html).not.toContain(`${kind}-t.jpg`)
      expect(html).not.toContain(`${kind}.jpg`)
      expect(html).not.toContain(`data-member="${ids[kind]}"`)
      expect(html).not.toMatch(new RegExp(`"id":${ids[kind]}\\b`))
    }
  })

  it("carries the packages for the hero's 'from' price, as a guest's GET /api/packages.php answers them", async () => {
    const html = await (await home()).text()
    const api = await server.request('http://localhost/api/packages.php', {
      headers: { 'user-agent': 'Mozilla/5.0 Chrome/140.0' },
    })
    const { packages } = (await api.json()) as { packages: unknown[] }
    expect(packages.length).toBeGreaterThan(0)
    expect(html).toContain(`<p data-packages="${packages.length}"></p>`)
    expect(html).toContain('"message_cost":')
  })

  it('gives a member (session cookie) the plain shell, without the showcase', async () => {
    const html = await (await home('localhost', 'sid=someone')).text()
    expect(html).toBe(SHELL)
  })

  it("holds a guest's home to its round trips: the showcase's search and the packages once a minute per host", async () => {
    // Another host: its first hit of the minute runs the showcase's search.
    const first = await countTrips(database.db, () => home('first.example'))
    // Within the minute the same host's home reuses it: its settings only.
    const again = await countTrips(database.db, () => home('first.example'))
    if (process.env.ROUND_TRIPS_SHOW) console.log(first, again)
    expect(again.statements.join('\n')).not.toMatch(/from "members"/i)
    // The host's settings (two reads, as on every page), then the showcase
    // (its members and their photos), then the packages of the hero's price
    // (two statements), reused for the minute too.
    expect(first.count).toBe(6)
    // The settings only.
    expect(again.count).toBe(2)
  })
})
