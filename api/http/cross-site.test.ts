// Cross-site requests: the GETs the spec gives a side effect (chat.php?profile=
// makes a conversation, a manual search.php saves the search) do nothing for
// another site, and the origin check believes X-Forwarded-Host only from a
// trusted proxy.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { conversations, members } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { accountsFromEnv } from '../mail/site.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMembers, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'

/** What a browser sends along when a page on another site makes the request. */
const FOREIGN: Record<string, Record<string, string>> = {
  'Sec-Fetch-Site: cross-site': { 'sec-fetch-site': 'cross-site' },
  'Sec-Fetch-Site: same-site (a sibling subdomain)': { 'sec-fetch-site': 'same-site' },
  'an Origin of another site': { origin: 'https://evil.example' },
  'a Referer of another site': { referer: 'https://evil.example/page' },
}

describeEngines('cross-site requests on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let me: MemberRow
  let other: MemberRow
  let cookie: string

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db })
    const rows = await addMembers(t.db, [{ gender: 'male' }, { gender: 'female' }])
    me = rows[0]!
    other = rows[1]!
    cookie = await login(app, me.email, TEST_PASSWORD)
  })
  afterAll(() => t.close())

  const conversationCount = async () => (await t.db.select().from(conversations)).length
  const savedSearch = async () =>
    (await t.db.select().from(members).where(eq(members.id, me.id)))[0]!.savedSearch

  it.each(Object.entries(FOREIGN))(
    'refuses to start a conversation for a GET chat.php with %s, and creates none',
    async (_what, headers) => {
      const res = await send(app, `/api/chat.php?profile=${other.id}`, { cookie, headers })
      expect(res.status).toBe(403)
      expect(await res.json()).toMatchObject({ error: 'cross_origin_refused' })
      expect(await conversationCount()).toBe(0)
    },
  )

  it.each(Object.entries(FOREIGN))(
    'answers a manual search with %s but does not save it',
    async (_what, headers) => {
      const res = await send(app, '/api/search.php?country=BE&min_age=40&manual_search=1', {
        cookie,
        headers,
      })
      expect(res.status).toBe(200)
      expect(await savedSearch()).toBeNull()
    },
  )

  it('keeps the spec contract for the site’s own calls', async () => {
    const own = { 'sec-fetch-site': 'same-origin', referer: 'http://localhost/members' }
    const chat = await send(app, `/api/chat.php?profile=${other.id}`, { cookie, headers: own })
    expect(chat.status).toBe(200)
    expect(await conversationCount()).toBe(1)
    // A typed address or a bookmark (Sec-Fetch-Site: none) and a call without
    // any browser header (curl) are not cross-site either.
    for (const headers of [{ 'sec-fetch-site': 'none' }, {}] as Record<string, string>[]) {
      const again = await send(app, `/api/chat.php?profile=${other.id}`, { cookie, headers })
      expect(again.status).toBe(200)
    }
    const found = await send(app, '/api/search.php?country=BE&min_age=40&manual_search=1', {
      cookie,
      headers: own,
    })
    expect(found.status).toBe(200)
    expect(await savedSearch()).toMatchObject({ country: 'BE', min_age: 40 })
  })

  it('believes X-Forwarded-Host only under TRUST_PROXY', async () => {
    // A forged X-Forwarded-Host naming the attacker's host would make their
    // Origin look like the site's own.
    const forged = {
      origin: 'https://evil.example',
      headers: { 'x-forwarded-host': 'evil.example' },
      cookie,
    }
    const untrusted = await send(app, '/api/logout.php', forged)
    expect(untrusted.status).toBe(403)
    expect((await send(app, '/api/user.php', { cookie })).status).toBe(200)

    // Behind a trusted proxy the forwarded host is the one the browser used.
    const proxied = createApi({ db: t.db, accounts: { ...accountsFromEnv({}), trustProxy: true } })
    const viaProxy = {
      origin: 'https://amora.example',
      headers: { 'x-forwarded-host': 'amora.example' },
      cookie,
    }
    const refused = await send(app, '/api/logout.php', viaProxy)
    expect(refused.status).toBe(403)
    const res = await send(proxied, '/api/logout.php', viaProxy)
    expect(res.status).toBe(200)
    expect((await send(app, '/api/user.php', { cookie })).status).toBe(403)
  })
})
