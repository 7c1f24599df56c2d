// The local push service refuses what a real one refuses (RFC 8030 headers,
// RFC 8292 VAPID), so the sender's tests against it mean something.
import { createECDH, generateKeyPairSync, type KeyObject, sign } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import webpush from 'web-push'
import {
  type BrowserSubscription,
  type LocalPushService,
  MAX_JWT_LIFETIME_S,
  startLocalPushService,
} from './local-push-service.ts'

/** An application server key pair: raw public key (base64url) and the KeyObject to sign with. */
function serverKeys(): { publicKey: string; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const jwk = publicKey.export({ format: 'jwk' })
  const raw = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x!, 'base64url'),
    Buffer.from(jwk.y!, 'base64url'),
  ])
  return { publicKey: raw.toString('base64url'), privateKey }
}

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** A VAPID Authorization header with any claims, signed by `keys` (ES256). */
function vapid(
  keys: { publicKey: string; privateKey: KeyObject },
  claims: Record<string, unknown>,
  header: Record<string, unknown> = { typ: 'JWT', alg: 'ES256' },
): string {
  const data = `${part(header)}.${part(claims)}`
  const signature = sign('sha256', Buffer.from(data), {
    key: keys.privateKey,
    dsaEncoding: 'ieee-p1363',
  })
  return `vapid t=${data}.${signature.toString('base64url')}, k=${keys.publicKey}`
}

describe('local push service', () => {
  let service: LocalPushService
  let subscription: BrowserSubscription
  const keys = serverKeys()
  const nowS = () => Math.floor(Date.now() / 1000)
  const good = () => ({ aud: service.origin, exp: nowS() + 3600, sub: 'mailto:ops@amora.example' })

  beforeAll(async () => {
    service = await startLocalPushService()
    subscription = service.subscribe({ applicationServerKey: keys.publicKey })
  })
  afterAll(() => service?.close())

  const post = async (
    authorization: string,
    headers: Record<string, string> = {},
    to: BrowserSubscription = subscription,
  ) => {
    const { cipherText } = webpush.encrypt(to.keys.p256dh, to.keys.auth, 'hello', 'aes128gcm')
    const res = await fetch(to.endpoint, {
      method: 'POST',
      headers: {
        TTL: '60',
        'Content-Encoding': 'aes128gcm',
        Authorization: authorization,
        ...headers,
      },
      body: new Uint8Array(cipherText),
    })
    await res.arrayBuffer()
    return { status: res.status, error: service.requests.at(-1)?.error }
  }

  it('hands out subscriptions like a browser: an endpoint, a P-256 key and a 16-byte secret', () => {
    expect(subscription.endpoint.startsWith(`${service.origin}/push/`)).toBe(true)
    const p256dh = Buffer.from(subscription.keys.p256dh, 'base64url')
    expect(p256dh).toHaveLength(65)
    expect(p256dh[0]).toBe(4)
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    expect(ecdh.computeSecret(p256dh)).toHaveLength(32) // a point on the curve
    expect(Buffer.from(subscription.keys.auth, 'base64url')).toHaveLength(16)
  })

  it('accepts a well-formed push and decrypts it', async () => {
    const before = service.deliveries.length
    // One set of claims: good() twice could straddle a second of `exp`.
    const claims = good()
    expect((await post(vapid(keys, claims), { Urgency: 'low', Topic: 'chat-1' })).status).toBe(201)
    const delivery = service.deliveries[before]!
    expect(delivery.payload.toString()).toBe('hello')
    expect(delivery).toMatchObject({ ttl: 60, urgency: 'low', topic: 'chat-1' })
    expect(delivery.claims).toEqual(claims)
  })

  it('checks the JWT audience, expiry (at most 24 h ahead), contact and signature', async () => {
    expect(MAX_JWT_LIFETIME_S).toBe(86_400)
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...good(), aud: 'https://fcm.googleapis.com' }, /aud/],
      [{ ...good(), aud: undefined }, /aud/],
      [{ ...good(), exp: nowS() + 86_400 + 120 }, /24 h/],
      [{ ...good(), exp: nowS() - 1 }, /expired/],
      [{ ...good(), exp: undefined }, /exp/],
      [{ ...good(), sub: 'http://amora.example' }, /sub/],
      [{ ...good(), sub: undefined }, /sub/],
    ]
    for (const [claims, error] of cases) {
      const res = await post(vapid(keys, claims))
      expect(res.status, JSON.stringify(claims)).toBe(401)
      expect(res.error).toMatch(error)
    }
    // Signed by another key than k.
    const forged = vapid(serverKeys(), good()).replace(/k=.*$/, `k=${keys.publicKey}`)
    expect(await post(forged)).toMatchObject({ status: 401, error: /signature/ })
    expect(await post(vapid(keys, good(), { typ: 'JWT', alg: 'HS256' }))).toMatchObject({
      status: 401,
      error: /ES256/,
    })
    expect((await post(`WebPush ${vapid(keys, good()).slice(6)}`)).status).toBe(401)
    // A valid JWT of a key the subscription was not made with.
    const other = serverKeys()
    expect(await post(vapid(other, good()))).toMatchObject({ status: 403 })
  })

  it('refuses pushes without TTL, with an unknown urgency, a long topic or another encoding', async () => {
    const auth = vapid(keys, good())
    expect((await post(auth, { TTL: '' })).status).toBe(400)
    expect((await post(auth, { Urgency: 'urgent' })).status).toBe(400)
    expect((await post(auth, { Topic: 'x'.repeat(33) })).status).toBe(400)
    expect((await post(auth, { Topic: 'chat 1' })).status).toBe(400)
    expect((await post(auth, { 'Content-Encoding': 'aesgcm' })).status).toBe(415)
  })

  it('answers 404 for an unknown endpoint and 410 once unsubscribed', async () => {
    const gone = service.subscribe()
    service.unsubscribe(gone.endpoint)
    expect((await post(vapid(keys, good()), {}, gone)).status).toBe(410)
    const unknown = { ...gone, endpoint: `${service.origin}/push/nope` }
    expect((await post(vapid(keys, good()), {}, unknown)).status).toBe(404)
  })

  it('answers scripted errors in order, then works again', async () => {
    service.failNext({ status: 503, retryAfter: '7' }, { status: 429 })
    const first = await fetch(subscription.endpoint, { method: 'POST', body: 'x' })
    expect(first.status).toBe(503)
    expect(first.headers.get('retry-after')).toBe('7')
    expect((await fetch(subscription.endpoint, { method: 'POST', body: 'x' })).status).toBe(429)
    expect((await post(vapid(keys, good()))).status).toBe(201)
  })
})
