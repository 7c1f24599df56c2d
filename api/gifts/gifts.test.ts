// The gift catalogue: the built-in gifts with their prices for every site, a
// site's own gift replacing one by its slug, gifts taken off sale, and the
// console's edits checked (a floor of 1 credit), audited and refused to
// staff without sites.edit; on both databases.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { GiftsResponse } from '../contract/gifts.ts'
import { GiftsAdminResponse } from '../contract/operator/sites.ts'
import { AuditResponse } from '../contract/operator/staff.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'
import { giftOnSale } from './gifts.ts'
import { staffSession } from '../test/staff.ts'

describeEngines('the gift catalogue on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let admin: string
  let support: string

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db })
    admin = (await staffSession(app, t.db, ['admin'])).cookie
    support = (await staffSession(app, t.db, ['support'])).cookie
  })
  afterAll(() => t.close())

  const catalogue = async (host = 'localhost') =>
    GiftsResponse.parse(
      await (await send(app, '/api/gifts.php', { base: `http://${host}` })).json(),
    ).gifts
  const save = (body: Record<string, unknown>, cookie = admin) =>
    send(app, '/api/operator/gifts.php', { method: 'PUT', body, cookie })

  it('offers the built-in gifts on every site: rose 15, coffee 20, teddy 40, champagne 60 credits', async () => {
    expect(await catalogue()).toEqual([
      { slug: 'rose', icon: '🌹', name: null, credits: 15 },
      { slug: 'coffee', icon: '☕', name: null, credits: 20 },
      { slug: 'teddy', icon: '🧸', name: null, credits: 40 },
      { slug: 'champagne', icon: '🍾', name: null, credits: 60 },
    ])
    // HEAD runs GET's handler: same status, no body.
    const head = await send(app, '/api/gifts.php', { method: 'HEAD' })
    expect(head.status).toBe(200)
  })

  it("a site's own gift replaces the every-site one of its slug there only; one off sale is gone", async () => {
    const sites = await send(app, '/api/operator/sites.php', {
      method: 'PUT',
      cookie: admin,
      body: { host: 'flirt.example', settings: { name: 'Flirt' } },
    })
    expect(sites.status).toBe(200)
    expect(
      (
        await save({
          site: 'flirt.example',
          slug: 'rose',
          icon: '🥀',
          name: 'Red rose',
          credits: 25,
        })
      ).status,
    ).toBe(200)
    expect(
      (await save({ site: 'flirt.example', slug: 'teddy', icon: '🧸', credits: 40, active: false }))
        .status,
    ).toBe(200)
    expect(
      (await save({ site: 'flirt.example', slug: 'kiss', icon: '💋', name: 'Kiss', credits: 5 }))
        .status,
    ).toBe(200)
    const flirt = await catalogue('flirt.example')
    expect(flirt.map((g) => [g.slug, g.icon, g.credits])).toEqual([
      // By position (the new ones 0), then price.
      ['kiss', '💋', 5],
      ['rose', '🥀', 25],
      ['coffee', '☕', 20],
      ['champagne', '🍾', 60],
    ])
    expect(flirt.find((g) => g.slug === 'rose')?.name).toBe('Red rose')
    // The other sites keep the every-site catalogue.
    expect((await catalogue()).map((g) => [g.slug, g.credits])).toEqual([
      ['rose', 15],
      ['coffee', 20],
      ['teddy', 40],
      ['champagne', 60],
    ])
    // The one gift a send buys (giftOnSale, one query by slug) follows the same rule.
    const onSale = async (host: string, slug: string) =>
      (await giftOnSale(t.db, host, slug))?.credits ?? null
    expect(await onSale('flirt.example', 'rose')).toBe(25)
    expect(await onSale('flirt.example', 'teddy')).toBeNull()
    expect(await onSale('flirt.example', 'kiss')).toBe(5)
    expect(await onSale('localhost', 'rose')).toBe(15)
    expect(await onSale('localhost', 'teddy')).toBe(40)
    expect(await onSale('localhost', 'kiss')).toBeNull()
  })

  it('refuses a free gift, a bad id and a bad icon naming the field, changing nothing', async () => {
    const before = await catalogue()
    for (const [body, field] of [
      [{ site: '', slug: 'rose', icon: '🌹', credits: 0 }, 'credits'],
      [{ site: '', slug: 'Rose!', icon: '🌹', credits: 10 }, 'slug'],
      [{ site: '', slug: 'rose', icon: '', credits: 10 }, 'icon'],
      [{ site: 'not a host', slug: 'rose', icon: '🌹', credits: 10 }, 'site'],
    ] as const) {
      const res = await save(body)
      expect([res.status, ((await res.json()) as { field?: string }).field]).toEqual([400, field])
    }
    expect(await catalogue()).toEqual(before)
  })

  it('records each change with before and after, and refuses staff without sites.edit', async () => {
    expect(
      (await save({ site: '', slug: 'coffee', icon: '☕', credits: 22, reason: 'autumn' })).status,
    ).toBe(200)
    const res = await send(app, '/api/operator/audit.php', { cookie: admin })
    const entry = AuditResponse.parse(await res.json()).entries.find(
      (e) => e.action === 'gift.save',
    )
    expect(entry?.target_id).toBe('/coffee')
    expect(entry?.reason).toBe('autumn')
    expect(JSON.stringify(entry?.details)).toContain('"credits":20')
    expect(JSON.stringify(entry?.details)).toContain('"credits":22')
    const list = GiftsAdminResponse.parse(
      await (await send(app, '/api/operator/gifts.php', { cookie: admin })).json(),
    )
    expect(list.gifts.find((g) => g.site === '' && g.slug === 'coffee')?.credits).toBe(22)
    expect((await send(app, '/api/operator/gifts.php', { cookie: support })).status).toBe(403)
    expect((await save({ site: '', slug: 'coffee', icon: '☕', credits: 1 }, support)).status).toBe(
      403,
    )
  })
})
