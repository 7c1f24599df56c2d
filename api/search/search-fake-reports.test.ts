// A member reported as a fake profile by settings.fake_reports_to_hide
// distinct members (default 3) is hidden from search and the guest showcase
// until they pass photo verification, and their own account says so
// (docs/law.md, "Hidden after fake-profile reports"); on both databases.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { images, members, reports, siteSettings } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { AccountUser, SearchResponse, ShowcaseResponse } from '../contract/index.ts'
import { DEFAULT_SETTINGS, forgetOperatorSettings } from '../settings/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'

describeEngines('members hidden after fake-profile reports on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let viewer: string
  let target: MemberRow
  let targetCookie: string
  const reporters: string[] = []

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db })
    const v = await addMember(t.db, { gender: 'male', country: 'NL' })
    viewer = await login(app, v.email, TEST_PASSWORD)
    target = await addMember(t.db, { gender: 'female', country: 'NL', name: 'Target' })
    targetCookie = await login(app, target.email, TEST_PASSWORD)
    const [img] = await t.db
      .insert(images)
      .values({ memberId: target.id, filename: 't.jpg', thumbFilename: 't-t.jpg', reviewed: true })
      .returning()
    await t.db.update(members).set({ mainImageId: img!.id }).where(eq(members.id, target.id))
    for (let i = 0; i < 4; i++) {
      const r = await addMember(t.db, { gender: 'male', country: 'NL' })
      reporters.push(await login(app, r.email, TEST_PASSWORD))
    }
  })
  afterAll(() => t?.close())

  const report = async (cookie: string, reason = 'fake_profile') => {
    const res = await send(app, '/api/reports.php', {
      method: 'POST',
      cookie,
      body: { profile: target.id, reason },
    })
    expect(res.status).toBe(201)
  }
  const inSearch = async () => {
    const res = await send(app, '/api/search.php?gender=female&country=NL', { cookie: viewer })
    return SearchResponse.parse(await res.json()).profiles.some((p) => p.id === target.id)
  }
  const inShowcase = async () =>
    ShowcaseResponse.parse(await (await send(app, '/api/showcase.php')).json()).profiles.some(
      (p) => p.id === target.id,
    )
  const toldHidden = async () =>
    AccountUser.parse(await (await send(app, '/api/user.php', { cookie: targetCookie })).json())
      .account.hidden_as_fake
  const setThreshold = async (n: number) => {
    await t.db
      .insert(siteSettings)
      .values({ key: 'fake_reports_to_hide', value: n })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value: n } })
    forgetOperatorSettings(t.db)
  }

  it('pins the default threshold: 3 reports', () => {
    expect(DEFAULT_SETTINGS.fake_reports_to_hide).toBe(3)
  })

  it('two fake-profile reports (and reports of other kinds) hide nobody', async () => {
    await report(reporters[0]!)
    await report(reporters[1]!)
    await report(reporters[2]!, 'spam')
    expect(await inSearch()).toBe(true)
    expect(await inShowcase()).toBe(true)
    expect(await toldHidden()).toBe(false)
  })

  it('the third distinct reporter hides the member from search and the showcase, and tells them', async () => {
    // The same reporter twice counts once.
    await report(reporters[0]!)
    expect(await inSearch()).toBe(true)
    await report(reporters[3]!)
    expect(await inSearch()).toBe(false)
    expect(await inShowcase()).toBe(false)
    expect(await toldHidden()).toBe(true)
  })

  it('a live setting: a higher threshold (or 0, off) shows the member again', async () => {
    await setThreshold(4)
    expect(await inSearch()).toBe(true)
    expect(await toldHidden()).toBe(false)
    await setThreshold(0)
    expect(await inSearch()).toBe(true)
    await setThreshold(3)
    expect(await inSearch()).toBe(false)
  })

  it('a report a moderator dismissed does not count', async () => {
    const [first] = await t.db
      .select()
      .from(reports)
      .where(eq(reports.reportedId, target.id))
      .orderBy(reports.id)
      .limit(1)
    await t.db.update(reports).set({ decision: 'dismiss' }).where(eq(reports.id, first!.id))
    // reporters[0] reported twice: one report of theirs still counts.
    expect(await inSearch()).toBe(false)
    await t.db.update(reports).set({ decision: 'dismiss' }).where(eq(reports.reportedId, target.id))
    expect(await inSearch()).toBe(true)
    await t.db.update(reports).set({ decision: null }).where(eq(reports.reportedId, target.id))
    expect(await inSearch()).toBe(false)
  })

  it('passing photo verification shows the member again', async () => {
    await t.db.update(members).set({ verifiedAt: new Date() }).where(eq(members.id, target.id))
    expect(await inSearch()).toBe(true)
    expect(await inShowcase()).toBe(true)
    expect(await toldHidden()).toBe(false)
  })
})
