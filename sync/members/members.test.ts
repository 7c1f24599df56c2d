// Profile pages, chat start, settings, webcam tiles and similar search results
// through the engine, against fake-indexeddb and a stubbed API.
// fake-indexeddb must be installed before Dexie loads: keep this import first.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Cam, ProfileResponse, SearchResponse } from '../../api/contract/index.ts'
import { SyncEngine } from '../engine.ts'
import { searchKey } from '../search/search-key.ts'
import { syncSettings } from '../settings/settings.ts'
import { LocalDb } from '../store/store.ts'
import { forbidden, offline, profile, reply, settings, stubServer, user } from '../test/fake-api.ts'
import { camsKey } from './view.ts'

let db: LocalDb
let engine: SyncEngine

beforeEach(async () => {
  vi.stubGlobal('location', new URL('http://localhost/'))
  vi.stubGlobal('self', globalThis)
  db = new LocalDb(`members-test-${crypto.randomUUID()}`)
  engine = new SyncEngine(db)
  await db.kv.put({ key: 'user', value: user() })
})

afterEach(async () => {
  engine.setLeader(false)
  await db.delete()
})

const page = (id: number, liked: boolean | null): ProfileResponse => ({
  profile: {
    ...profile(id),
    profile_fields: { height: '170' },
    notes: { personal: 'Hello' },
    countryregion_name: 'Utrecht',
    country_name: 'Netherlands',
  },
  liked,
  liked_me: liked === null ? null : false,
})

describe('loadProfile', () => {
  it('stores the page and learns whether the member liked it', async () => {
    const server = stubServer({ '/api/profile.php': () => reply(page(70, true)) })
    expect(await engine.members.loadProfile(70)).toEqual({ ok: true, value: { id: 70 } })
    expect(server.requests[0]?.url.searchParams.get('id')).toBe('70')
    expect(await db.profileDetails.get(70)).toMatchObject({
      detail: { id: 70, country_name: 'Netherlands', notes: { personal: 'Hello' } },
      likedMe: false,
    })
    expect(await db.likes.get(70)).toMatchObject({ liked: true, serverLiked: true })
  })

  it('keeps a pending unlike shown over what the page says', async () => {
    stubServer({ '/api/likes.php': offline, '/api/profile.php': () => reply(page(70, true)) })
    await engine.likes.unlike(70)
    await engine.members.loadProfile(70)
    expect(await db.likes.get(70)).toMatchObject({ liked: false, serverLiked: true })
  })

  it('learns nothing about likes for a guest', async () => {
    stubServer({ '/api/profile.php': () => reply(page(70, null)) })
    await engine.members.loadProfile(70)
    expect(await db.likes.count()).toBe(0)
    expect(await db.profileDetails.get(70)).toBeDefined()
  })

  it('removes a stored copy on 404 and keeps it when offline', async () => {
    const server = stubServer({ '/api/profile.php': () => reply(page(70, false)) })
    await engine.members.loadProfile(70)
    server.routes['/api/profile.php'] = offline
    expect(await engine.members.loadProfile(70)).toMatchObject({ error: { code: 'offline' } })
    expect(await db.profileDetails.get(70)).toBeDefined()
    server.routes['/api/profile.php'] = () => reply({ error: 'not_found' }, 404)
    expect(await engine.members.loadProfile(70)).toMatchObject({ error: { status: 404 } })
    expect(await db.profileDetails.get(70)).toBeUndefined()
  })
})

describe('startChat', () => {
  it('answers the conversation id', async () => {
    const server = stubServer({ '/api/chat.php': () => reply({ id: 12 }) })
    expect(await engine.members.startChat(70)).toEqual({ ok: true, value: { id: 12 } })
    expect(server.requests[0]?.url.searchParams.get('profile')).toBe('70')
  })

  it('passes a failure on, and asks for the user on 403', async () => {
    const server = stubServer({ '/api/chat.php': forbidden, '/api/user.php': () => reply(user()) })
    expect(await engine.members.startChat(70)).toMatchObject({ ok: false, error: { status: 403 } })
    expect(server.calls('/api/user.php')).toHaveLength(1)
    server.routes['/api/chat.php'] = offline
    expect(await engine.members.startChat(70)).toMatchObject({ error: { code: 'offline' } })
  })
})

describe('settings and webcam tiles', () => {
  const cam = (account: string): Cam => ({
    account,
    name: account,
    age: 25,
    gender: 'female',
    thumb_url: `/cams/${account}.jpg`,
    online: true,
  })

  it('stores the webcam tiles of a filter under camsKey', async () => {
    const server = stubServer({ '/api/xcams/search.php': () => reply({ cams: [cam('a')] }) })
    const filters = { gender: 'female' as const, min_age: 26, max_age: 35 }
    expect(await engine.members.syncCams(filters)).toEqual({
      ok: true,
      value: { key: camsKey(filters) },
    })
    expect(Object.fromEntries(server.requests[0]!.url.searchParams)).toEqual({
      gender: 'female',
      min_age: '26',
      max_age: '35',
    })
    expect((await db.cams.get(camsKey(filters)))?.cams).toEqual([cam('a')])
  })

  it('stores nothing from a webcam answer that breaks the contract', async () => {
    stubServer({ '/api/xcams/search.php': () => reply({ cams: [{ account: 1 }] }) })
    expect(await engine.members.syncCams({})).toMatchObject({ error: { code: 'bad_response' } })
    expect(await db.cams.count()).toBe(0)
  })

  it('keeps the settings in kv', async () => {
    stubServer({ '/api/settings.php': () => reply(settings()) })
    expect(await syncSettings(engine.ctx)).toMatchObject({ ok: true })
    expect((await db.kv.get('settings'))?.value).toMatchObject({ member_resell: ['cams'] })
  })
})

describe('search with similar results', () => {
  it('stores the similar profiles apart on the page', async () => {
    const body: SearchResponse = {
      profiles: [profile(1)],
      similar: [profile(2), profile(3)],
      filter_options: {
        gender: ['female', 'male'],
        min_age: 18,
        max_age: 100,
        country: [{ id: 'NL', name: 'Netherlands' }],
        countryregion: [],
      },
      filters: {
        gender: 'female',
        country: 'NL',
        countryregion: null,
        min_age: 26,
        max_age: 35,
        verified: false,
      },
      paging: { num_results: 1, page: 1, pp: 12 },
    }
    stubServer({ '/api/search.php': () => reply(body) })
    const filters = { min_age: 26, max_age: 35 }
    await engine.search(filters, 1, true)
    const stored = await db.searchPages.get([searchKey(filters), 1])
    expect(stored).toMatchObject({ ids: [1], similarIds: [2, 3] })
    expect((await db.profiles.bulkGet([2, 3])).every(Boolean)).toBe(true)
  })
})
