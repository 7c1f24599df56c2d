// Which push endpoints the server will ever send to (POST /api/user.php?push=1
// stores them; the sender posts to them). An endpoint is a URL a browser
// hands us, so without a check it is a way to make the server send requests
// into its own network (SSRF): only https on the default port, to a host
// whose every address is public. Names are resolved and their addresses
// checked, at subscribe time and again at send time (a name can be pointed
// elsewhere later); `publicOnlyLookup` lets the sender's HTTP agent refuse a
// private address at connect time, which also closes DNS rebinding.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { BlockList, isIP } from 'node:net'

import type { HostLookup } from '../mail/site.ts'

export type { HostLookup }

export const systemLookup: HostLookup = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses: LookupAddress[]) =>
      err ? reject(err) : resolve(addresses.map((a) => a.address)),
    ),
  )

/**
 * Addresses that are not the public internet: loopback, private, link-local,
 * carrier-grade NAT, documentation, benchmarking, multicast and reserved
 * ranges (IANA special-purpose registries), for IPv4 and IPv6. IPv4-mapped
 * IPv6 addresses (::ffff:a.b.c.d) match the IPv4 rules.
 */
const NOT_PUBLIC = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4')
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6')
}

/** 64:ff9b::/96 (NAT64) carries an IPv4 address in its last 32 bits: that one decides. */
function nat64Embedded(address: string): string | null {
  const m = /^64:ff9b::(?:([0-9a-f]{1,4}):([0-9a-f]{1,4})|(\d+\.\d+\.\d+\.\d+))$/i.exec(address)
  if (!m) return null
  if (m[3]) return m[3]
  const hi = Number.parseInt(m[1]!, 16)
  const lo = Number.parseInt(m[2]!, 16)
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.')
}

/** Whether an IP address (v4 or v6, no brackets) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  if (family === 4) return !NOT_PUBLIC.check(address, 'ipv4')
  const embedded = nat64Embedded(address)
  if (embedded) return isPublicAddress(embedded)
  if (/^64:ff9b:/i.test(address)) return false
  return !NOT_PUBLIC.check(address, 'ipv6')
}

export type EndpointVerdict =
  | { ok: true; host: string; addresses: string[] }
  | { ok: false; reason: string; retryable: boolean }

const refuse = (reason: string, retryable = false): EndpointVerdict => ({
  ok: false,
  reason,
  retryable,
})

/** DNS answers that say "try again", not "no such name". */
const TEMPORARY_DNS = new Set(['EAI_AGAIN', 'ETIMEOUT', 'ECONNREFUSED', 'ESERVFAIL'])

/**
 * Checks a push endpoint: an https URL on the default port, without
 * credentials, whose host is a public address or a name that resolves only
 * to public addresses. `retryable` marks a DNS failure that may pass later.
 */
export async function checkPushEndpoint(
  endpoint: string,
  lookup: HostLookup = systemLookup,
): Promise<EndpointVerdict> {
  if (!URL.canParse(endpoint)) return refuse('not a URL')
  const url = new URL(endpoint)
  if (url.protocol !== 'https:') return refuse('not https')
  if (url.port !== '') return refuse('not the default https port')
  if (url.username || url.password) return refuse('credentials in the URL')
  // WHATWG parsing already turned 2130706433 or 0x7f.1 into 127.0.0.1.
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase()
  if (isIP(host)) {
    return isPublicAddress(host)
      ? { ok: true, host, addresses: [host] }
      : refuse('not a public address')
  }
  if (
    !host.includes('.') ||
    /(^|\.)(localhost|local|internal|home\.arpa|localdomain)$/.test(host)
  ) {
    return refuse('not a public host name')
  }
  let addresses: string[]
  try {
    addresses = await lookup(host)
  } catch (e) {
    const code = (e as { code?: string }).code ?? ''
    return refuse('the host name does not resolve', TEMPORARY_DNS.has(code))
  }
  if (addresses.length === 0) return refuse('the host name does not resolve')
  if (!addresses.every(isPublicAddress))
    return refuse('the host name resolves to a private address')
  return { ok: true, host, addresses }
}

/** For the sender at send time: true only for an endpoint that passes checkPushEndpoint now. */
export const isPublicPushEndpoint = async (
  endpoint: string,
  lookup: HostLookup = systemLookup,
): Promise<boolean> => (await checkPushEndpoint(endpoint, lookup)).ok

/**
 * A `lookup` for http.Agent / https.Agent (net.connect's option) that resolves
 * as usual but fails for any private address, so the connection itself can
 * only reach the public internet, whatever the name resolved to at check time.
 */
export function publicOnlyLookup(
  hostname: string,
  options: { all?: boolean } & Record<string, unknown>,
  callback: (
    err: NodeJS.ErrnoException | null,
    address: string | LookupAddress[],
    family?: number,
  ) => void,
): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, [])
    const bad = addresses.find((a) => !isPublicAddress(a.address))
    if (bad || addresses.length === 0) {
      const refused: NodeJS.ErrnoException = new Error(`push: ${hostname} is not a public host`)
      refused.code = 'EPUBLICONLY'
      return callback(refused, [])
    }
    if (options.all) return callback(null, addresses)
    const first = addresses[0]!
    callback(null, first.address, first.family)
  })
}
