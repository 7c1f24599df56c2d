// Buying credits in the worker against a real Dexie store (fake-indexeddb)
// and a stubbed server: a discount that no longer applies orders nothing and
// refreshes the stored discount; a paid transaction refreshes it too (the
// welcome code is spent with the first purchase).
// fake-indexeddb must be installed before Dexie loads: keep this import first.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SyncEngine } from '../engine.ts'
import { kvGet, kvPut } from '../store/kv.ts'
import { LocalDb } from '../store/store.ts'
import { reply, stubServer, user } from '../test/fake-api.ts'
import { paymentsHandlers } from './payments.ts'

let db: LocalDb
let engine: SyncEngine

beforeEach(async () => {
  vi.stubGlobal('location', new URL('http://localhost/'))
  vi.stubGlobal('self', globalThis)
  db = new LocalDb(`payments-test-${crypto.randomUUID()}`)
  engine = new SyncEngine(db)
  await db.kv.put({ key: 'user', value: user() })
})

afterEach(async () => {
  engine.setLeader(false)
  engine.stopPolling()
  vi.unstubAllGlobals()
  await db.delete()
})

const welcome = {
  code: 'WELCOME-1',
  kind: 'welcome',
  bonus_percent: 50,
  percent_off: null,
  ends_at: null,
} as const

const handlers = () =>
  paymentsHandlers({
    ctx: engine.ctx,
    syncCredits: async () => undefined,
    refreshUser: async () => undefined,
  })

const transaction = (status: 'paid' | 'pending') => ({
  id: 'abcdefghijklmnop',
  status,
  package: 'popular',
  method: 'ideal',
  currency: 'EUR',
  amount: 1999,
  credits: 400,
  credits_added: status === 'paid' ? 400 : 0,
  created_at: '2026-11-25T06:00:00.000Z',
})

describe('placeOrder', () => {
  it('orders nothing with a discount that no longer applies, and stores the discount as it is now', async () => {
    await kvPut(db, 'discount', { discount: welcome, at: 0 })
    const server = stubServer({
      'POST /api/orders.php': () =>
        reply(
          {
            error: 'discount_not_for_you',
            field: 'discount_code',
            message: 'the welcome code is for a first purchase',
          },
          403,
        ),
      'GET /api/discountcode.php': () => reply({ discount: null }),
    })
    const res = await handlers().placeOrder('starter', 'creditcard', welcome.code)
    expect(res).toMatchObject({ ok: false, error: { code: 'discount_not_for_you', status: 403 } })
    // One try: a refused code is not retried with the same client id.
    expect(server.calls('POST /api/orders.php')).toHaveLength(1)
    expect(server.calls('GET /api/discountcode.php')).toHaveLength(1)
    expect((await kvGet(db, 'discount'))?.discount).toBeNull()
  })

  it('leaves the stored discount alone when the order fails for another reason', async () => {
    await kvPut(db, 'discount', { discount: welcome, at: 0 })
    const server = stubServer({
      'POST /api/orders.php': () =>
        reply({ error: 'invalid_input', field: 'method', message: 'method: not offered' }, 400),
      'GET /api/discountcode.php': () => reply({ discount: null }),
    })
    const res = await handlers().placeOrder('starter', 'creditcard', welcome.code)
    expect(res).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(server.calls('GET /api/discountcode.php')).toHaveLength(0)
    expect((await kvGet(db, 'discount'))?.discount).toEqual(welcome)
  })
})

describe('an order retried (one client id per order, kept across retries)', () => {
  /** Each attempt's body: fails offline, then with a 503, then answers. */
  function flakyOrders() {
    let attempt = 0
    return stubServer({
      'POST /api/orders.php': () => {
        attempt++
        if (attempt === 1) return Promise.reject(new TypeError('Failed to fetch'))
        if (attempt === 2)
          return reply({ error: 'payment_provider_unavailable', message: 'try again' }, 503)
        return reply({ transaction: transaction('pending'), checkout_url: 'https://pay.test/1' })
      },
    })
  }

  /** Runs an order while the retry pauses (500 ms, then 1 s) pass on a fake clock. */
  async function settle<T>(order: Promise<T>): Promise<T> {
    await vi.advanceTimersByTimeAsync(1_500)
    return order
  }

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('every attempt of a retried order carries the same client_id (a new one could order twice)', async () => {
    const server = flakyOrders()
    const res = await settle(handlers().placeOrder('starter', 'ideal'))
    expect(res).toMatchObject({ ok: true, value: { checkout_url: 'https://pay.test/1' } })
    const ids = server
      .calls('POST /api/orders.php')
      .map((r) => (r.body as { client_id: string }).client_id)
    expect(ids).toHaveLength(3)
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(new Set(ids)).toEqual(new Set([ids[0]]))
  })

  it('every attempt of a retried repeat order carries the same client_id', async () => {
    const server = flakyOrders()
    const res = await settle(handlers().repeatOrder())
    expect(res.ok).toBe(true)
    const calls = server.calls('POST /api/orders.php')
    expect(calls.map((r) => r.url.searchParams.get('repeat'))).toEqual(['1', '1', '1'])
    const ids = calls.map((r) => (r.body as { client_id: string }).client_id)
    expect(ids).toHaveLength(3)
    expect(new Set(ids).size).toBe(1)
  })

  it('a new order gets a new client_id', async () => {
    const server = stubServer({
      'POST /api/orders.php': () =>
        reply({ transaction: transaction('pending'), checkout_url: null }),
    })
    await handlers().placeOrder('starter', 'ideal')
    await handlers().placeOrder('starter', 'ideal')
    const ids = server
      .calls('POST /api/orders.php')
      .map((r) => (r.body as { client_id: string }).client_id)
    expect(new Set(ids).size).toBe(2)
  })
})

describe('loadTransaction', () => {
  it('asks for the discount again once the transaction is paid (the welcome code is spent)', async () => {
    await kvPut(db, 'discount', { discount: welcome, at: 0 })
    const server = stubServer({
      'GET /api/transactions.php': () => reply(transaction('paid')),
      'GET /api/discountcode.php': () => reply({ discount: null }),
    })
    expect((await handlers().loadTransaction('abcdefghijklmnop')).ok).toBe(true)
    expect(server.calls('GET /api/discountcode.php')).toHaveLength(1)
    expect((await kvGet(db, 'discount'))?.discount).toBeNull()
  })

  it('stores the paid transaction only once the discount is current: buying again at once never shows the spent welcome price', async () => {
    await kvPut(db, 'discount', { discount: welcome, at: 0 })
    let answerDiscount: (r: Response) => void = () => {}
    const server = stubServer({
      'GET /api/transactions.php': () => reply(transaction('paid')),
      'GET /api/discountcode.php': () =>
        new Promise<Response>((resolve) => {
          answerDiscount = resolve
        }),
    })
    const loading = handlers().loadTransaction('abcdefghijklmnop')
    await vi.waitFor(() => expect(server.calls('GET /api/discountcode.php')).toHaveLength(1))
    // The discount is still being asked for: the page is not told "paid" yet.
    expect(await kvGet(db, 'transaction')).toBeUndefined()
    answerDiscount(reply({ discount: null }))
    expect((await loading).ok).toBe(true)
    expect((await kvGet(db, 'discount'))?.discount).toBeNull()
    expect(await kvGet(db, 'transaction')).toMatchObject({ status: 'paid' })
  })

  it('keeps the discount while the transaction is still pending', async () => {
    await kvPut(db, 'discount', { discount: welcome, at: 0 })
    const server = stubServer({
      'GET /api/transactions.php': () => reply(transaction('pending')),
      'GET /api/discountcode.php': () => reply({ discount: null }),
    })
    expect((await handlers().loadTransaction('abcdefghijklmnop')).ok).toBe(true)
    expect(server.calls('GET /api/discountcode.php')).toHaveLength(0)
    expect((await kvGet(db, 'discount'))?.discount).toEqual(welcome)
  })
})
