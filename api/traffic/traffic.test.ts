import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { creditLedger, images, memberPrivacy, members } from '../../db/schema/index.ts'
import { LanderMembersResponse } from '../contract/index.ts'
import {
  type AccountsApi,
  accountsApi,
  freshEmail,
  ip,
  signUp,
  signupBody,
} from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'
import { addMember, addMembers, type NewMember } from '../test/seed.ts'

describeEngines('affiliate tracking and landers on %s', (engine) => {
  let database: TestDatabase
  let api: AccountsApi
  let client = 0

  beforeAll(async () => {
    database = await freshDatabase(engine)
    api = accountsApi(database.db)
  })
  afterAll(async () => {
    await api?.mailer.idle()
    await database?.close()
  })

  const signUpWith = async (trafficsource: unknown, form_path = '/signup') => {
    const email = freshEmail()
    const { res } = await signUp(
      api.app,
      { ...signupBody({ email, form_path }), trafficsource },
      {
        headers: ip(++client),
      },
    )
    return { res, email }
  }

  it('a sign-up records its tracking record (network, subs, cpc, lander)', async () => {
    const record = { network: 'aff1', sub1: 'x', sub2: 'camp_2', cpc: '0.25', lander: 'video' }
    const { res, email } = await signUpWith(record)
    expect(res.status).toBe(200)
    const [row] = await database.db.select().from(members).where(eq(members.email, email))
    expect(row?.trafficsource).toEqual(record)
  })

  it.each([
    ['trafficsource.network', { network: '<script>alert(1)</script>' }],
    ['trafficsource.sub1', { network: 'aff1', sub1: 'a b' }],
    ['trafficsource.ref', { network: 'aff1', ref: 'r'.repeat(65) }],
  ])('a value outside the tracking pattern is 400 %s and never echoed', async (field, record) => {
    const { res, email } = await signUpWith(record)
    expect(res.status).toBe(400)
    const body = await res.text()
    expect(JSON.parse(body).field).toBe(field)
    expect(body).not.toContain('<script>')
    expect(body).not.toContain('a b')
    expect(await database.db.select().from(members).where(eq(members.email, email))).toEqual([])
  })

  it('the traffic_report view counts sign-ups and first purchases per network, sub1 and lander', async () => {
    const a = await signUpWith({ network: 'repnet', sub1: 's1' }, '/landers/maplanding/x')
    await signUpWith({ network: 'repnet', sub1: 's1', lander: 'maplanding' })
    await signUpWith({ network: 'repnet', sub1: 's2' })
    const [buyer] = await database.db.select().from(members).where(eq(members.email, a.email))
    for (const delta of [100, 50]) {
      await database.db.insert(creditLedger).values({
        memberId: buyer!.id,
        delta,
        reason: 'purchase',
        balanceAfter: delta,
      })
    }
    type Row = { sub1: string; lander: string | null; signups: unknown; first_purchases: unknown }
    const result = (await database.db.execute(
      sql`SELECT sub1, lander, signups, first_purchases FROM traffic_report WHERE network = 'repnet' ORDER BY sub1`,
    )) as unknown as { rows: Row[] }
    const rows = result.rows
    expect(
      rows.map((r) => [r.sub1, r.lander, Number(r.signups), Number(r.first_purchases)]),
    ).toEqual([
      ['s1', 'maplanding', 2, 1],
      ['s2', null, 1, 0],
    ])
  })

  it('lander members: public cards of members with a photo near the visitor, nothing private', async () => {
    const [withPhoto, , deleted] = await addMembers(database.db, [
      { name: 'Anna', city: 'Utrecht', age: 34 },
      { name: 'NoPhoto' },
      { name: 'Gone', deletedAt: new Date() },
    ])
    for (const m of [withPhoto!, deleted!]) {
      const [img] = await database.db
        .insert(images)
        .values({ memberId: m.id, filename: `f${m.id}.jpg`, thumbFilename: `t${m.id}.jpg` })
        .returning()
      await database.db.update(members).set({ mainImageId: img!.id }).where(eq(members.id, m.id))
    }
    const similar = await addMember(database.db, { name: 'Bea', age: 36 })
    const [img] = await database.db
      .insert(images)
      .values({ memberId: similar.id, filename: 'b.jpg', thumbFilename: 'tb.jpg' })
      .returning()
    await database.db
      .update(members)
      .set({ mainImageId: img!.id })
      .where(eq(members.id, similar.id))

    const res = await send(api.app, '/api/lander_members.php')
    expect(res.status).toBe(200)
    const body = LanderMembersResponse.parse(await res.json())
    const names = body.members.map((m) => m.name)
    expect(names).toContain('Anna')
    expect(names).not.toContain('NoPhoto')
    expect(names).not.toContain('Gone')
    expect(Object.keys(body.members[0] ?? {}).sort()).toEqual(
      ['age', 'city', 'country', 'fictional', 'gender', 'id', 'name', 'thumb'].sort(),
    )
    const one = LanderMembersResponse.parse(
      await (await send(api.app, `/api/lander_members.php?member=${withPhoto!.id}`)).json(),
    )
    expect(one.member).toMatchObject({ name: 'Anna', age: 34, city: 'Utrecht' })
    expect(one.members.map((m) => m.name)).toContain('Bea')
    // A deleted member: no card, still members to show (the page converts).
    const gone = LanderMembersResponse.parse(
      await (await send(api.app, `/api/lander_members.php?member=${deleted!.id}`)).json(),
    )
    expect(gone.member).toBeNull()
    expect(gone.members.length).toBeGreaterThan(0)
    expect((await send(api.app, '/api/lander_members.php?member=abc')).status).toBe(400)
  })

  it('lander members: a member who hides when they were online is placed by sign-up time, never by activity', async () => {
    const DAY = 86_400_000
    const ago = (ms: number) => new Date(Date.now() - ms)
    const withPhoto = async (spec: NewMember) => {
      const m = await addMember(database.db, spec)
      const [img] = await database.db
        .insert(images)
        .values({ memberId: m.id, filename: `h${m.id}.jpg`, thumbFilename: `th${m.id}.jpg` })
        .returning()
      await database.db.update(members).set({ mainImageId: img!.id }).where(eq(members.id, m.id))
      return m
    }
    await withPhoto({ name: 'Shown', signupDate: ago(30 * DAY), lastActiveAt: ago(DAY) })
    const hider = await withPhoto({
      name: 'Hider',
      signupDate: ago(40 * DAY),
      lastActiveAt: ago(2 * DAY),
    })
    await database.db.insert(memberPrivacy).values({ memberId: hider.id, hideOnline: true })
    // The hider is active now: the most recent activity of all.
    await database.db
      .update(members)
      .set({ lastActiveAt: new Date() })
      .where(eq(members.id, hider.id))
    const body = LanderMembersResponse.parse(
      await (await send(api.app, '/api/lander_members.php')).json(),
    )
    const names = body.members.map((m) => m.name)
    expect(names).toContain('Hider')
    expect(names.indexOf('Shown')).toBeLessThan(names.indexOf('Hider'))
  })
})
