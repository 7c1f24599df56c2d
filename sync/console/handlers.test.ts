// The console's calls by endpoint name (sync/console/handlers.ts) and the
// addresses of links (sync/links/handlers.ts): method, path and fixed query
// come from the endpoint table, the answer is parsed with the entry's
// schema, and only console entries are called this way.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { endpoints } from '../../api/contract/index.ts'
import { endpointUrl as urlOf } from '../core/http.ts'
import { linkHandlers } from '../links/handlers.ts'
import { consoleHandlers, isConsoleEndpoint } from './handlers.ts'

type Seen = { url: URL; method: string; body: unknown; headers: Headers }

function stubFetch(status: number, answer: unknown): Seen[] {
  const seen: Seen[] = []
  vi.stubGlobal('self', globalThis)
  vi.stubGlobal('location', new URL('http://localhost/'))
  vi.stubGlobal('fetch', async (url: URL, init: RequestInit) => {
    seen.push({
      url,
      method: init.method ?? 'GET',
      body: init.body,
      headers: new Headers(init.headers),
    })
    return new Response(answer === undefined ? null : JSON.stringify(answer), {
      status,
      headers: { 'Content-Type': 'application/json' },
    })
  })
  return seen
}

const staff = {
  id: 1,
  email: 'admin@example.com',
  name: 'Admin',
  roles: ['admin'],
  capabilities: ['audit'],
}

describe('console calls through the worker', () => {
  afterEach(() => vi.unstubAllGlobals())
  const { consoleRequest } = consoleHandlers()

  it('takes method and path from the entry and sends the body as JSON', async () => {
    const seen = stubFetch(200, staff)
    const body = { email: 'admin@example.com', password: 'secret', code: '123456' }
    const res = await consoleRequest('operatorLogin', { body })
    expect(res).toEqual({ ok: true, value: staff })
    expect(seen[0]?.method).toBe(endpoints.operatorLogin.method)
    expect(seen[0]?.url.pathname).toBe(endpoints.operatorLogin.path)
    expect(seen[0]?.headers.get('Content-Type')).toBe('application/json')
    expect(JSON.parse(String(seen[0]?.body))).toEqual(body)
  })

  it('puts the query on the URL, leaving out what is not set', async () => {
    const seen = stubFetch(200, { entries: [], next: null })
    await consoleRequest('operatorAudit', { query: { before: 40, target_type: undefined } })
    expect(seen[0]?.url.pathname).toBe('/api/operator/audit.php')
    expect(seen[0]?.url.search).toBe('?before=40')
  })

  it('refuses an answer its schema does not take (bad_response, not a cast)', async () => {
    stubFetch(200, { ...staff, roles: 'admin' })
    const res = await consoleRequest('operatorMe')
    expect(res.ok).toBe(false)
    if (!res.ok) expect(res.error.code).toBe('bad_response')
  })

  it("hands over the API's error with its status and field", async () => {
    stubFetch(400, { error: 'invalid_input', field: 'code' })
    const res = await consoleRequest('operatorLogin', {
      body: { email: 'a@example.com', password: 'x', code: '1' },
    })
    expect(res).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'invalid_input', status: 400, field: 'code' },
    })
  })

  it('calls only console entries: a member endpoint is refused without a request', async () => {
    const seen = stubFetch(200, { chats: [] })
    // @ts-expect-error: `chats` is not a console endpoint
    const res = await consoleRequest('chats')
    expect(res.ok).toBe(false)
    if (!res.ok) expect(res.error.code).toBe('not_console')
    expect(seen).toEqual([])
    expect(isConsoleEndpoint('operatorMe')).toBe(true)
    expect(isConsoleEndpoint('chats')).toBe(false)
    expect(isConsoleEndpoint('toString')).toBe(false)
  })
})

describe('link addresses from the table', () => {
  const { endpointUrl } = linkHandlers()

  it('is the entry path with its query, encoded', async () => {
    expect(await endpointUrl('accountExport')).toBe('/api/account_export.php')
    expect(await endpointUrl('operatorReportCsv', { from: '2026-01-01', site: '' })).toBe(
      '/api/operator/report-csv.php?from=2026-01-01',
    )
    expect(await endpointUrl('operatorMemberExport', { id: 7, reason: 'GDPR & request' })).toBe(
      '/api/operator/member_export.php?id=7&reason=GDPR+%26+request',
    )
  })

  it("adds the entry's fixed query (endpointUrl, as the worker's beacons use it)", () => {
    expect(urlOf('endOtherSessions')).toBe('/api/sessions.php?others=1')
    expect(urlOf('pushVisibility', { visible: 0 })).toBe('/api/push-visibility.php?visible=0')
  })

  it('gives addresses of GETs only', async () => {
    // @ts-expect-error: a POST is not a link
    await expect(endpointUrl('operatorLogin')).rejects.toThrow(/not a GET/)
  })
})
