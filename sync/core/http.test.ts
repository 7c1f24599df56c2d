// request(name) takes method, path and fixed query from the endpoint table and
// parses the answer with the table's schema.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { forgetConditional, request } from './http.ts'

type Seen = { url: URL; method: string; body: unknown }

function stubFetch(status: number, answer: unknown): Seen[] {
  const seen: Seen[] = []
  vi.stubGlobal('self', globalThis)
  vi.stubGlobal('location', new URL('http://localhost/'))
  vi.stubGlobal('fetch', async (url: URL, init: RequestInit) => {
    seen.push({ url, method: init.method ?? 'GET', body: init.body })
    return new Response(answer === undefined ? null : JSON.stringify(answer), { status })
  })
  return seen
}

describe('request(name) by the endpoint table', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('sends the sign-up as POST /api/user.php?new=1 with the JSON body', async () => {
    const seen = stubFetch(200, { status: 'ok', email: 'a@example.com' })
    await request('signup', { body: { email: 'a@example.com', password: 'long enough' } })
    expect(seen[0]?.method).toBe('POST')
    expect(seen[0]?.url.pathname).toBe('/api/user.php')
    expect(seen[0]?.url.searchParams.get('new')).toBe('1')
    expect(JSON.parse(String(seen[0]?.body))).toEqual({
      email: 'a@example.com',
      password: 'long enough',
    })
  })

  it('sends the body of an entry marked form as a form post, not JSON', async () => {
    const seen = stubFetch(200, undefined)
    await request('localCheckoutAction', { body: { id: 'tr_12345678', action: 'paid' } })
    expect(seen[0]?.method).toBe('POST')
    expect(seen[0]?.url.pathname).toBe('/api/payments/checkout.php')
    expect(seen[0]?.body).toBeInstanceOf(URLSearchParams)
    expect(String(seen[0]?.body)).toBe('id=tr_12345678&action=paid')
  })

  it('puts the query on the URL', async () => {
    const seen = stubFetch(200, {})
    await request('likes', { query: { type: 'given', page: 2 } })
    expect(seen[0]?.url.search).toBe('?type=given&page=2')
  })

  it('refuses an answer that does not match the response schema', async () => {
    stubFetch(200, { chats: 'not a list' })
    const res = await request('chats')
    expect(res.ok).toBe(false)
    if (!res.ok) expect(res.error.code).toBe('bad_response')
  })

  it('answers null for an endpoint without JSON (204 beacon)', async () => {
    stubFetch(204, undefined)
    expect(await request('pageHidden')).toEqual({ ok: true, value: null })
  })
})

describe('conditional polls (spec §9 reads answer 304 when nothing changed)', () => {
  afterEach(() => {
    forgetConditional()
    vi.unstubAllGlobals()
  })

  /** A server that answers chats with an ETag and 304 to a matching If-None-Match. */
  function etagServer(state: { chats: unknown[]; etag: string }) {
    const sent: (string | null)[] = []
    vi.stubGlobal('self', globalThis)
    vi.stubGlobal('location', new URL('http://localhost/'))
    vi.stubGlobal('fetch', async (_url: URL, init: RequestInit) => {
      const ifNoneMatch = new Headers(init.headers).get('If-None-Match')
      sent.push(ifNoneMatch)
      if (ifNoneMatch === state.etag) return new Response(null, { status: 304 })
      return new Response(JSON.stringify({ chats: state.chats }), {
        status: 200,
        headers: { ETag: state.etag, 'Content-Type': 'application/json' },
      })
    })
    return sent
  }

  it('sends the last ETag and answers the kept copy on 304', async () => {
    const state = { chats: [], etag: '"v1"' }
    const sent = etagServer(state)
    expect(await request('chats')).toEqual({ ok: true, value: { chats: [] } })
    expect(await request('chats')).toEqual({ ok: true, value: { chats: [] } })
    expect(sent).toEqual([null, '"v1"'])
  })

  it('takes a new answer and its ETag when the data changed', async () => {
    const state = { chats: [] as unknown[], etag: '"v1"' }
    const sent = etagServer(state)
    await request('chats')
    state.etag = '"v2"'
    await request('chats')
    await request('chats')
    expect(sent).toEqual([null, '"v1"', '"v2"'])
  })

  it('forgets every kept answer when the session ends', async () => {
    const sent = etagServer({ chats: [], etag: '"v1"' })
    await request('chats')
    forgetConditional()
    await request('chats')
    expect(sent).toEqual([null, null])
  })

  it('is not used for other reads (search pages are not polled)', async () => {
    const sent = etagServer({ chats: [], etag: '"v1"' })
    await request('settings')
    await request('settings')
    expect(sent).toEqual([null, null])
  })
})
