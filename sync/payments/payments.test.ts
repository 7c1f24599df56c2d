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
