// POST /api/user.php?push=1: the server will post to the endpoint, so only
// https on public hosts (api/push/endpoint-check.ts), and one endpoint belongs
// to one member (api/push/subscriptions.ts).
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { pushSubscriptions } from '../../db/schema/index.ts'
import { ApiError } from '../contract/index.ts'
import type { HostLookup } from '../push/endpoint-check.ts'
import { type AccountsApi, accountsApi, fakeDns } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'

/** The tests' DNS plus names that point into private networks, and one that fails for now. */
const lookup: HostLookup = async (host) => {
  if (host === 'rebind.example') return ['10.0.0.5']
  if (host === 'dual.example') return ['93.184.215.14', 'fd00::5']
  if (host === 'flaky.example') {
    throw Object.assign(new Error('EAI_AGAIN'), { code: 'EAI_AGAIN' })
  }
  return fakeDns(host)
}

const KEYS = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
}

describeEngines('push subscriptions on %s', (engine) => {
  let t: TestDatabase
  let api: AccountsApi
  let alice: { id: number; cookie: string }
  let bob: { id: number; cookie: string }

  beforeAll(async () => {
    t = await freshDatabase(engine)
    api = accountsApi(t.db, { lookupHost: lookup })
    const member = async (email: string) => {
      const row = await addMember(t.db, { email })
      return { id: row.id, cookie: await login(api.app, email, TEST_PASSWORD) }
    }
    alice = await member('alice-push@example.com')
    bob = await member('bob-push@example.com')
  })
  afterAll(() => t.close())

  const subscribe = (cookie: string, endpoint: string, keys = KEYS) =>
    send(api.app, '/api/user.php?push=1', {
      method: 'POST',
      cookie,
      body: { subscription: { endpoint, keys } },
    })
  const ownerOf = async (endpoint: string) => {
    const rows = await t.db
      .select({ memberId: pushSubscriptions.memberId, auth: pushSubscriptions.auth })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, endpoint))
    return rows[0]
  }

  it.each([
    'http://push.example/a',
    'https://push.example:8443/a',
    'https://localhost/a',
    'https://127.0.0.1/a',
    'https://[::1]/a',
    'https://10.1.2.3/a',
    'https://172.16.5.4/a',
    'https://192.168.0.1/a',
    'https://169.254.169.254/latest/meta-data',
    'https://[fc00::1]/a',
    'https://rebind.example/a',
    'https://dual.example/a',
    'https://unknown.invalid/a',
  ])('refuses %s with 400 naming subscription.endpoint and stores nothing', async (endpoint) => {
    const res = await subscribe(alice.cookie, endpoint)
    expect(res.status).toBe(400)
    expect(ApiError.parse(await res.json())).toMatchObject({
      error: 'invalid_input',
      field: 'subscription.endpoint',
    })
    expect(await ownerOf(endpoint)).toBeUndefined()
  })

  it('answers 503 when the host cannot be resolved for now', async () => {
    // A DNS failure is not a 500: the client may try again (app.request: send() refuses 5xx).
    const res = await api.app.request('http://localhost/api/user.php?push=1', {
      method: 'POST',
      headers: {
        host: 'localhost',
        origin: 'http://localhost',
        cookie: alice.cookie,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ subscription: { endpoint: 'https://flaky.example/a', keys: KEYS } }),
    })
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('60')
    expect(await ownerOf('https://flaky.example/a')).toBeUndefined()
  })

  it('stores an https endpoint of a public host', async () => {
    const endpoint = 'https://push.example/alice-1'
    expect(await (await subscribe(alice.cookie, endpoint)).json()).toEqual({ status: 'subscribed' })
    expect(await ownerOf(endpoint)).toEqual({ memberId: alice.id, auth: KEYS.auth })
  })

  it('refuses another member posting a known endpoint without that browser’s keys (409)', async () => {
    const endpoint = 'https://push.example/alice-2'
    await subscribe(alice.cookie, endpoint)
    const stolen = await subscribe(bob.cookie, endpoint, { ...KEYS, auth: 'bobs-own-secret' })
    expect(stolen.status).toBe(409)
    expect(ApiError.parse(await stolen.json())).toMatchObject({
      error: 'endpoint_taken',
      field: 'subscription.endpoint',
    })
    expect(await ownerOf(endpoint)).toEqual({ memberId: alice.id, auth: KEYS.auth })
  })

  it('moves the endpoint when the same browser subscribes again after another member signs in', async () => {
    const endpoint = 'https://push.example/shared-browser'
    await subscribe(alice.cookie, endpoint)
    const again = await subscribe(bob.cookie, endpoint)
    expect(again.status).toBe(200)
    expect(await ownerOf(endpoint)).toEqual({ memberId: bob.id, auth: KEYS.auth })
    const rows = await t.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, endpoint))
    expect(rows).toHaveLength(1)
  })

  it('lets the owner post new keys for their endpoint', async () => {
    const endpoint = 'https://push.example/alice-3'
    await subscribe(alice.cookie, endpoint)
    const renewed = await subscribe(alice.cookie, endpoint, { ...KEYS, auth: 'renewed-secret' })
    expect(renewed.status).toBe(200)
    expect(await ownerOf(endpoint)).toEqual({ memberId: alice.id, auth: 'renewed-secret' })
  })
})
