// The client's address behind a proxy (TRUST_PROXY, docs/several-machines.md):
// only the right-most X-Forwarded-For entry is believed, the one the site's own
// proxy appended; what the client wrote in front of it is its own to forge.
// Without TRUST_PROXY the header counts for nothing.
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { clientIp, UNKNOWN_IP } from './ratelimit.ts'

const addressOf = async (trustProxy: boolean, headers: Record<string, string>) => {
  const app = new Hono().get('/', (c) => c.text(clientIp(c, trustProxy)))
  return (await app.request('/', { headers })).text()
}

describe('clientIp', () => {
  it('takes the last X-Forwarded-For entry under TRUST_PROXY, not a forged first one', async () => {
    // HAProxy's `option forwardfor` after a client that sent its own header.
    expect(await addressOf(true, { 'x-forwarded-for': '6.6.6.6, 203.0.113.9' })).toBe('203.0.113.9')
    expect(await addressOf(true, { 'x-forwarded-for': '203.0.113.9' })).toBe('203.0.113.9')
    expect(await addressOf(true, { 'x-forwarded-for': ' 6.6.6.6 ,2001:db8::1 ' })).toBe(
      '2001:db8::1',
    )
  })

  it('ignores X-Forwarded-For without TRUST_PROXY (the socket decides)', async () => {
    // app.request has no socket: the shared "unknown" address, never the header's.
    expect(await addressOf(false, { 'x-forwarded-for': '203.0.113.9' })).toBe(UNKNOWN_IP)
  })

  it('falls back to the socket when a trusted proxy sent no header', async () => {
    expect(await addressOf(true, {})).toBe(UNKNOWN_IP)
  })
})
