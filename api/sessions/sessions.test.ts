// Sessions end when idle for 30 days or 90 days after login, whatever the
// use (an injected clock moves time); the member lists their signed-in
// devices, ends one or all others, and an ended device gets 403 next time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { SessionsResponse } from '../contract/index.ts'
import {
  SESSION_ABSOLUTE_S,
  SESSION_IDLE_S,
  SESSION_MAX_AGE_S,
  SESSION_TOUCH_S,
} from '../http/session.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send, sessionToken } from '../test/http.ts'
import { addMembers, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { deviceOf } from './sessions.ts'

const DAY = 24 * 3600 * 1000
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
const WINDOWS_FIREFOX =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'

describe('session lifetimes', () => {
  it('pins idle 30 days, absolute 90 days, the cookie at spec §9’s 30 days', () => {
    expect(SESSION_IDLE_S).toBe(2_592_000)
    expect(SESSION_ABSOLUTE_S).toBe(7_776_000)
    expect(SESSION_MAX_AGE_S).toBe(2_592_000)
    expect(SESSION_TOUCH_S).toBe(300)
  })

  it('names the browser and system of common user agents', () => {
    expect(deviceOf(ANDROID_CHROME)).toEqual({ browser: 'Chrome', os: 'Android' })
    expect(deviceOf(IPHONE_SAFARI)).toEqual({ browser: 'Safari', os: 'iOS' })
    expect(deviceOf(WINDOWS_FIREFOX)).toEqual({ browser: 'Firefox', os: 'Windows' })
    expect(deviceOf('curl/8.5')).toEqual({ browser: null, os: null })
  })
})

describeEngines('sessions on %s', (engine) => {
  let t: TestDatabase
  let clock: Date
  let app: Api
  let members: MemberRow[]

  beforeAll(async () => {
    t = await freshDatabase(engine)
    clock = new Date()
    app = createApi({ db: t.db, now: () => clock })
    members = await addMembers(t.db, [{}, {}])
  })
  afterAll(() => t.close())

  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms)
  }
  /** Logs in from a browser; the Cookie header to send. */
  const loginFrom = async (member: MemberRow, userAgent = ANDROID_CHROME) => {
    const res = await send(app, '/api/login.php', {
      method: 'POST',
      body: { email: member.email, password: TEST_PASSWORD },
      headers: { 'user-agent': userAgent },
    })
    expect(res.status).toBe(200)
    return `sid=${sessionToken(res)}`
  }
  const userStatus = async (cookie: string) => (await send(app, '/api/user.php', { cookie })).status
  const list = async (cookie: string) => {
    const res = await send(app, '/api/sessions.php', { cookie })
    expect(res.status).toBe(200)
    return SessionsResponse.parse(await res.json()).sessions
  }

  it('ends a session left unused for 30 days', async () => {
    const cookie = await loginFrom(members[0]!)
    advance(SESSION_IDLE_S * 1000 - 60_000)
    expect(await userStatus(cookie)).toBe(200)
    // That use counts: another 30 days less a minute later it still works.
    advance(SESSION_IDLE_S * 1000 - 60_000)
    expect(await userStatus(cookie)).toBe(200)
    advance(SESSION_IDLE_S * 1000 + 1000)
    expect(await userStatus(cookie)).toBe(403)
  })

  it('renews the cookie for another 30 days when it renews the last use', async () => {
    const cookie = await loginFrom(members[0]!)
    advance(SESSION_TOUCH_S * 1000 + 1000)
    const res = await send(app, '/api/user.php', { cookie })
    const set = res.headers.getSetCookie().find((c) => c.startsWith('sid='))
    expect(set).toContain(`Max-Age=${SESSION_MAX_AGE_S}`)
    expect(set).toContain('HttpOnly')
    // Within five minutes nothing is written and no cookie is sent.
    advance(60_000)
    const again = await send(app, '/api/user.php', { cookie })
    expect(again.headers.getSetCookie()).toEqual([])
  })

  it('ends a session 90 days after login however often it is used', async () => {
    const cookie = await loginFrom(members[0]!)
    for (let day = 10; day < 90; day += 10) {
      advance(10 * DAY)
      expect(await userStatus(cookie), `day ${day}`).toBe(200)
    }
    advance(10 * DAY)
    expect(await userStatus(cookie)).toBe(403)
  })

  it('lists the member’s devices, the current one first and marked', async () => {
    const phone = await loginFrom(members[1]!, ANDROID_CHROME)
    advance(1000)
    const laptop = await loginFrom(members[1]!, WINDOWS_FIREFOX)
    await loginFrom(members[0]!, IPHONE_SAFARI) // someone else's: never listed
    const seen = await list(laptop)
    expect(seen.map((s) => [s.browser, s.os, s.current])).toEqual([
      ['Firefox', 'Windows', true],
      ['Chrome', 'Android', false],
    ])
    expect(seen[0]!.created_at).toBe(clock.toISOString())
    expect((await list(phone))[0]).toMatchObject({ browser: 'Chrome', current: true })
  })

  it('ends one device: its next call is 403, the others stay', async () => {
    const phone = await loginFrom(members[1]!, ANDROID_CHROME)
    const laptop = await loginFrom(members[1]!, WINDOWS_FIREFOX)
    const phoneId = (await list(phone)).find((s) => s.current)!.id
    const res = await send(app, '/api/sessions.php', {
      method: 'DELETE',
      cookie: laptop,
      body: { id: phoneId },
    })
    expect(res.status).toBe(200)
    const left = SessionsResponse.parse(await res.json()).sessions
    expect(left.map((s) => s.id)).not.toContain(phoneId)
    expect(await userStatus(phone)).toBe(403)
    expect(await userStatus(laptop)).toBe(200)
  })

  it('answers 404 for another member’s session or an unknown id, and ends nothing', async () => {
    const mine = await loginFrom(members[1]!)
    const theirs = await loginFrom(members[0]!)
    const theirId = (await list(theirs)).find((s) => s.current)!.id
    for (const id of [theirId, 987_654_321]) {
      const res = await send(app, '/api/sessions.php', {
        method: 'DELETE',
        cookie: mine,
        body: { id },
      })
      expect(res.status).toBe(404)
    }
    expect(await userStatus(theirs)).toBe(200)
    const bad = await send(app, '/api/sessions.php', {
      method: 'DELETE',
      cookie: mine,
      body: { id: 'x' },
    })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ field: 'id' })
  })

  it('logs out everywhere else and keeps this device signed in', async () => {
    const others = [await loginFrom(members[1]!), await loginFrom(members[1]!, IPHONE_SAFARI)]
    const here = await loginFrom(members[1]!, WINDOWS_FIREFOX)
    const res = await send(app, '/api/sessions.php?others=1', { method: 'DELETE', cookie: here })
    expect(res.status).toBe(200)
    const left = SessionsResponse.parse(await res.json()).sessions
    expect(left).toHaveLength(1)
    expect(left[0]!.current).toBe(true)
    for (const cookie of others) expect(await userStatus(cookie)).toBe(403)
    expect(await userStatus(here)).toBe(200)
  })

  it('ending the current session is a logout', async () => {
    const here = await loginFrom(members[1]!)
    const id = (await list(here)).find((s) => s.current)!.id
    const res = await send(app, '/api/sessions.php', {
      method: 'DELETE',
      cookie: here,
      body: { id },
    })
    expect(await res.json()).toEqual({ sessions: [] })
    expect(res.headers.getSetCookie().some((c) => c.startsWith('sid=;'))).toBe(true)
    expect(await userStatus(here)).toBe(403)
  })

  it('answers 403 without a session, and refuses a cross-site DELETE', async () => {
    expect((await send(app, '/api/sessions.php')).status).toBe(403)
    const here = await loginFrom(members[1]!)
    const res = await send(app, '/api/sessions.php?others=1', {
      method: 'DELETE',
      cookie: here,
      origin: 'https://evil.example',
    })
    expect(res.status).toBe(403)
  })
})
