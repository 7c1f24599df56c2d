// Push endpoints the server may post to: https, default port, public hosts only.
import { describe, expect, it } from 'vitest'
import {
  checkPushEndpoint,
  type HostLookup,
  isPublicAddress,
  isPublicPushEndpoint,
  publicOnlyLookup,
} from './endpoint-check.ts'

const dns =
  (table: Record<string, string[]>): HostLookup =>
  async (host) => {
    const found = table[host]
    if (found) return found
    throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
  }

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::10.0.0.1',
    '2001:db8::1',
    '2002:7f00:1::',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false)
  })

  it.each([
    '8.8.8.8',
    '142.250.74.10',
    '172.32.0.1',
    '2001:4860:4860::8888',
    '2a00:1450:4001::200e',
    '64:ff9b::808:808',
  ])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true)
  })
})

describe('checkPushEndpoint', () => {
  const lookup = dns({
    'fcm.googleapis.com': ['142.250.74.10', '2a00:1450:4001::200e'],
    'evil.example': ['10.0.0.7'],
    'half.example': ['8.8.8.8', '192.168.0.10'],
    'v6local.example': ['::1'],
  })

  it('accepts https to a host whose every address is public', async () => {
    expect(await checkPushEndpoint('https://fcm.googleapis.com/fcm/send/abc', lookup)).toEqual({
      ok: true,
      host: 'fcm.googleapis.com',
      addresses: ['142.250.74.10', '2a00:1450:4001::200e'],
    })
    expect(await isPublicPushEndpoint('https://fcm.googleapis.com/fcm/send/abc', lookup)).toBe(true)
  })

  it.each([
    ['http://fcm.googleapis.com/x', 'not https'],
    ['https://fcm.googleapis.com:8443/x', 'not the default https port'],
    ['https://user:pw@fcm.googleapis.com/x', 'credentials in the URL'],
    ['https://localhost/x', 'not a public host name'],
    ['https://LOCALHOST./x', 'not a public host name'],
    ['https://printer.local/x', 'not a public host name'],
    ['https://intranet/x', 'not a public host name'],
    ['https://127.0.0.1/x', 'not a public address'],
    ['https://2130706433/x', 'not a public address'],
    ['https://0x7f.1/x', 'not a public address'],
    ['https://[::1]/x', 'not a public address'],
    ['https://[::ffff:127.0.0.1]/x', 'not a public address'],
    ['https://169.254.169.254/latest/meta-data', 'not a public address'],
    ['https://[fd00::1]/x', 'not a public address'],
    ['https://evil.example/x', 'the host name resolves to a private address'],
    ['https://half.example/x', 'the host name resolves to a private address'],
    ['https://v6local.example/x', 'the host name resolves to a private address'],
    ['https://nowhere.example/x', 'the host name does not resolve'],
    ['not a url', 'not a URL'],
  ])('refuses %s (%s)', async (endpoint, reason) => {
    expect(await checkPushEndpoint(endpoint, lookup)).toEqual({
      ok: false,
      reason,
      retryable: false,
    })
    expect(await isPublicPushEndpoint(endpoint, lookup)).toBe(false)
  })

  it('marks a temporary DNS failure as retryable', async () => {
    const flaky: HostLookup = async () => {
      throw Object.assign(new Error('EAI_AGAIN'), { code: 'EAI_AGAIN' })
    }
    expect(await checkPushEndpoint('https://push.example/x', flaky)).toEqual({
      ok: false,
      reason: 'the host name does not resolve',
      retryable: true,
    })
  })
})

describe('publicOnlyLookup', () => {
  it('fails a connection to a name that resolves to loopback', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      publicOnlyLookup('localhost', {}, (e) => resolve(e)),
    )
    expect(err?.code).toBe('EPUBLICONLY')
  })

  it('resolves an IP literal that is public', async () => {
    const address = await new Promise((resolve, reject) =>
      publicOnlyLookup('8.8.8.8', {}, (e, a) => (e ? reject(e) : resolve(a))),
    )
    expect(address).toBe('8.8.8.8')
  })
})
