// GET /api/profile.php?id= (spec §2 profile page, optional auth): what a guest
// and a member see, like state for a member, the operator's visible fields,
// and one 404 for unknown and deleted members alike.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { images, likes, members, siteSettings } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { ApiError, ProfileResponse } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, ageToday, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'

describeEngines('profile on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let me: MemberRow
  let cookie: string
  let her: MemberRow
  let gone: MemberRow

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db })
    me = await addMember(database.db, { gender: 'male', countryregion: 'NL-NH' })
    her = await addMember(database.db, {
      name: 'Anna',
      country: 'BE',
      countryregion: 'BE-VAN',
      city: 'Antwerpen',
      personal: 'Hello there',
      fictional: true,
      profileFields: { relationship: 'single', height: '170', secret_field: 'hidden', smoking: '' },
      notes: { looking_for: 'Someone kind', private_note: 'not for show' },
    })
    gone = await addMember(database.db, { deletedAt: new Date() })
    const imgs = await database.db
      .insert(images)
      .values([
        { memberId: her.id, filename: 'a.jpg', thumbFilename: 'a_t.jpg' },
        { memberId: her.id, filename: 'b.jpg', thumbFilename: 'b_t.jpg' },
      ])
      .returning()
    await database.db
      .update(members)
      .set({ mainImageId: imgs[1]!.id })
      .where(eq(members.id, her.id))
    cookie = await login(app, me.email, TEST_PASSWORD)
  })
  afterAll(() => database?.close())

  const profile = async (id: number | string, as?: string) => {
    const res = await send(app, `/api/profile.php?id=${id}`, { cookie: as })
    expect(res.status).toBe(200)
    return ProfileResponse.parse(await res.json())
  }
  const expect404 = async (query: string, as?: string) => {
    const res = await send(app, `/api/profile.php?${query}`, { cookie: as })
    expect(res.status).toBe(404)
    expect(ApiError.parse(await res.json())).toEqual({ error: 'not_found', message: 'not_found' })
  }

  it('shows a guest the profile, without like state', async () => {
    const page = await profile(her.id)
    expect(page.liked).toBeNull()
    expect(page.liked_me).toBeNull()
    expect(page.profile).toMatchObject({
      id: her.id,
      name: 'Anna',
      age: ageToday(her.dateOfBirth),
      city: 'Antwerpen',
      country: 'BE',
      country_name: 'Belgium',
      countryregion: 'BE-VAN',
      personal: 'Hello there',
      fictional: true,
      main_image: { thumb_filename: 'b_t.jpg' },
    })
    expect(page.profile.countryregion_name).toBe('Antwerp')
    expect(page.profile.images.map((i) => i.thumb_filename)).toEqual(['a_t.jpg', 'b_t.jpg'])
  })

  it('shows only the fields and notes the operator made visible', async () => {
    const page = await profile(her.id)
    // Default settings: relationship, height, smoking, children, education; personal, looking_for.
    expect(page.profile.profile_fields).toEqual({
      relationship: 'single',
      height: '170',
      smoking: '',
    })
    expect(page.profile.notes).toEqual({ looking_for: 'Someone kind' })
    await database.db
      .insert(siteSettings)
      .values({ key: 'visible_profile_fields', value: ['height'] })
    try {
      expect((await profile(her.id)).profile.profile_fields).toEqual({ height: '170' })
    } finally {
      await database.db.delete(siteSettings).where(eq(siteSettings.key, 'visible_profile_fields'))
    }
  })

  it('tells a member whether they liked the profile and whether it liked them', async () => {
    expect(await profile(her.id, cookie)).toMatchObject({ liked: false, liked_me: false })
    await database.db.insert(likes).values({ likerId: me.id, likedId: her.id })
    expect(await profile(her.id, cookie)).toMatchObject({ liked: true, liked_me: false })
    await database.db.insert(likes).values({ likerId: her.id, likedId: me.id })
    expect(await profile(her.id, cookie)).toMatchObject({ liked: true, liked_me: true })
    // A guest still learns nothing about likes.
    expect(await profile(her.id)).toMatchObject({ liked: null, liked_me: null })
  })

  it('shows a member their own profile', async () => {
    const page = await profile(me.id, cookie)
    expect(page.profile.id).toBe(me.id)
    expect(page.profile.countryregion_name).toBe('Noord-Holland')
  })

  it('treats a stale session as a guest', async () => {
    expect(await profile(her.id, 'sid=not-a-real-session')).toMatchObject({ liked: null })
  })

  it('answers unknown and deleted members with the same 404 (reveals nothing)', async () => {
    await expect404(`id=${gone.id}`)
    await expect404(`id=${gone.id}`, cookie)
    await expect404('id=987654321', cookie)
    // A profile the viewer liked before it was deleted is gone all the same.
    await database.db.insert(likes).values({ likerId: me.id, likedId: gone.id })
    await expect404(`id=${gone.id}`, cookie)
  })

  it('answers a bad id with 400 naming it', async () => {
    for (const q of [
      '',
      'id=',
      'id=abc',
      'id=-1',
      'id=0',
      'id=1.5',
      'id=1e400',
      'id=99999999999999999999',
    ]) {
      const res = await send(app, `/api/profile.php?${q}`, { cookie })
      expect(res.status, q).toBe(400)
      expect(ApiError.parse(await res.json()).field).toBe('id')
    }
  })
})
