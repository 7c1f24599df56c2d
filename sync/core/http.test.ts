// request(name) takes method, path and fixed query from the endpoint table and
// parses the answer with the table's schema.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { request } from './http.ts'

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
