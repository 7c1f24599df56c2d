// Spec §7: when the page hides, POST /api/page-hidden.php with an empty JSON
// body, as a beacon (keepalive), carrying the headers every request sends.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { SyncEngine } from '../engine.ts'
import { LocalDb } from '../store/store.ts'

let db: LocalDb

beforeEach(() => {
  vi.stubGlobal('location', new URL('http://localhost/'))
  vi.stubGlobal('self', globalThis)
  db = new LocalDb(`page-hidden-${crypto.randomUUID()}`)
})
afterEach(() => db.delete())

it('sends the page-hidden beacon with an empty JSON body and the client headers', async () => {
  const fetch = vi.fn(async () => new Response(null, { status: 204 }))
  vi.stubGlobal('fetch', fetch)
  await new SyncEngine(db).pageHidden()
  expect(fetch).toHaveBeenCalledTimes(1)
  const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
  expect(url).toBe('/api/page-hidden.php')
  expect(init).toMatchObject({ method: 'POST', keepalive: true, body: '{}' })
  expect(init.headers).toMatchObject({
    'Content-Type': 'application/json',
    'X-Client-Package': 'amora-pwa',
    'X-Original-Host': 'localhost',
  })
})

it('never throws when the network is gone (the page is going away anyway)', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Promise.reject(new TypeError('offline'))),
  )
  await expect(new SyncEngine(db).pageHidden()).resolves.toBeUndefined()
})
