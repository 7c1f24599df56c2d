// A push service on this machine, for the tests, the fan-out benchmark and a
// developer's `npm start`: it plays both the browser vendor's push service
// (RFC 8030) and the browsers behind it. It hands out subscriptions the way
// a browser's pushManager.subscribe() does (its own P-256 key pair and auth
// secret each), accepts POST /push/{id} as a push service does, checks the
// VAPID authorization (RFC 8292) and the RFC 8030 headers, and decrypts the
// message (RFC 8291) as the browser would, so a test reads exactly what the
// service worker would get. It can be told to answer the next requests with
// an error (410, 429, 503 with Retry-After, ...) to exercise the sender.
//
// Plain http on 127.0.0.1: node:crypto cannot make a certificate, and no
// certificate package is installed; the sender allows http only for origins
// it is explicitly given (SenderOptions.allowHttpOrigins).
import { createECDH, createPublicKey, randomBytes, verify } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DecryptError, decryptPushMessage, type UserAgentKeys } from './ece.ts'

/** RFC 8030 §7.2: a push service accepts at least 4096 bytes of body. */
export const MAX_BODY_BYTES = 4096
/** RFC 8292 §2: a JWT's exp is at most 24 hours after the request. */
export const MAX_JWT_LIFETIME_S = 24 * 60 * 60
const URGENCIES = new Set(['very-low', 'low', 'normal', 'high'])

/** What pushManager.subscribe() gives a page (PushSubscription.toJSON()). */
export interface BrowserSubscription {
  endpoint: string
  keys: { p256dh: string; auth: string }
}

/** A message the service accepted and the "browser" decrypted. */
export interface Delivery {
  endpoint: string
  /** The decrypted bytes, as the service worker's event.data would hold them. */
  payload: Buffer
  ttl: number
  urgency: string
  topic: string | undefined
  /** The verified VAPID JWT claims and key. */
  claims: { aud: string; exp: number; sub: string }
  vapidKey: string
  receivedAt: number
}

/** Every request, with the status it got (accepted or not). */
export interface RequestRecord {
  path: string
  status: number
  /** Why a request was refused. */
  error?: string
  headers: IncomingMessage['headers']
}

/** A scripted answer for the next request: status and optional Retry-After value. */
export interface ScriptedAnswer {
  status: number
  retryAfter?: string
}

export interface LocalPushService {
  /** http://127.0.0.1:{port}: the VAPID audience this service expects. */
  origin: string
  /** A new subscription; with applicationServerKey, pushes signed by another key get 403. */
  subscribe(options?: { applicationServerKey?: string }): BrowserSubscription
  /** The browser dropped the subscription: its endpoint answers 410 Gone from now on. */
  unsubscribe(endpoint: string): void
  /** Answers the next requests, in order, with these instead of handling them. */
  failNext(...answers: ScriptedAnswer[]): void
  deliveries: Delivery[]
  requests: RequestRecord[]
  /** Resolves once `count` deliveries arrived in all (rejects after timeoutMs). */
  waitForDeliveries(count: number, timeoutMs?: number): Promise<Delivery[]>
  close(): Promise<void>
}

interface Subscription {
  keys: UserAgentKeys
  applicationServerKey: string | undefined
  gone: boolean
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export interface LocalPushOptions {
  /** Default 0: a free port. */
  port?: number
  now?: () => number
  /** Called on each delivery (the CLI prints them). */
  onDelivery?: (delivery: Delivery) => void
}

/** What the service holds: its subscriptions, what it was told to answer, and what it got. */
interface ServiceState {
  options: LocalPushOptions
  now: () => number
  /** Set once the server listens. */
  origin: string
  subscriptions: Map<string, Subscription>
  scripted: ScriptedAnswer[]
  deliveries: Delivery[]
  requests: RequestRecord[]
  waiters: Set<() => void>
  messageSerial: number
  /** Senders reuse a JWT for hours: its signature is checked once (its claims every time). */
  verified: Set<string>
}

/** A new subscription with its own key pair and auth secret, as a browser makes one. */
function subscribeTo(
  state: ServiceState,
  opts: { applicationServerKey?: string } = {},
): BrowserSubscription {
  const ecdh = createECDH('prime256v1')
  const publicKey = ecdh.generateKeys()
  const id = randomBytes(16).toString('base64url')
  const keys = { publicKey, privateKey: ecdh.getPrivateKey(), authSecret: randomBytes(16) }
  state.subscriptions.set(id, {
    keys,
    applicationServerKey: opts.applicationServerKey,
    gone: false,
  })
  return {
    endpoint: `${state.origin}/push/${id}`,
    keys: {
      p256dh: publicKey.toString('base64url'),
      auth: keys.authSecret.toString('base64url'),
    },
  }
}

/** Answers one push request: a scripted answer, a refusal, or the message checked, decrypted and kept. */
async function handle(
  state: ServiceState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { origin } = state
  const path = req.url ?? '/'
  const record: RequestRecord = { path, status: 0, headers: req.headers }
  state.requests.push(record)
  const answer = (status: number, headers: Record<string, string> = {}, error?: string) => {
    record.status = status
    if (error !== undefined) record.error = error
    res.writeHead(status, headers)
    res.end(error === undefined ? undefined : JSON.stringify({ error }))
  }
  try {
    const next = state.scripted.shift()
    if (next) {
      await readBody(req)
      const headers: Record<string, string> = next.retryAfter
        ? { 'Retry-After': next.retryAfter }
        : {}
      return answer(next.status, headers, `scripted ${next.status}`)
    }
    const match = /^\/push\/([A-Za-z0-9_-]+)$/.exec(path)
    const subscription = match ? state.subscriptions.get(match[1]!) : undefined
    if (!match || !subscription) throw new Refusal(404, 'no such subscription')
    if (req.method !== 'POST') throw new Refusal(405, 'POST only')
    if (subscription.gone) throw new Refusal(410, 'subscription expired or unsubscribed')
    const delivery = {
      endpoint: `${origin}${path}`,
      ...checkHeaders(req),
      ...checkVapid(req.headers.authorization, origin, state.now(), subscription, state.verified),
    }
    const body = await readBody(req)
    let payload: Buffer
    try {
      payload = decryptPushMessage(body, subscription.keys)
    } catch (e) {
      if (e instanceof DecryptError) throw new Refusal(400, `decryption: ${e.message}`)
      throw e
    }
    const full: Delivery = { ...delivery, payload, receivedAt: state.now() }
    state.deliveries.push(full)
    state.options.onDelivery?.(full)
    for (const wake of state.waiters) wake()
    answer(201, { Location: `${origin}/message/${++state.messageSerial}` })
  } catch (e) {
    if (e instanceof Refusal) return answer(e.status, {}, e.message)
    answer(500, {}, e instanceof Error ? e.message : String(e))
  }
}

/** Resolves once `count` deliveries arrived in all; rejects after timeoutMs. */
function waitForDeliveries(
  state: ServiceState,
  count: number,
  timeoutMs: number,
): Promise<Delivery[]> {
  const { deliveries, waiters } = state
  return new Promise((resolve, reject) => {
    const check = () => {
      if (deliveries.length < count) return
      clearTimeout(timer)
      waiters.delete(check)
      resolve(deliveries.slice(0, count))
    }
    const timer = setTimeout(() => {
      waiters.delete(check)
      reject(new Error(`${deliveries.length} of ${count} deliveries after ${timeoutMs} ms`))
    }, timeoutMs)
    waiters.add(check)
    check()
  })
}

export async function startLocalPushService(
  options: LocalPushOptions = {},
): Promise<LocalPushService> {
  const state: ServiceState = {
    options,
    now: options.now ?? Date.now,
    origin: '',
    subscriptions: new Map(),
    scripted: [],
    deliveries: [],
    requests: [],
    waiters: new Set(),
    messageSerial: 0,
    verified: new Set(),
  }
  const subscribe = (opts: { applicationServerKey?: string } = {}): BrowserSubscription =>
    subscribeTo(state, opts)

  const server = createServer((req, res) => {
    // A developer's way to get a subscription without a browser (CLI below).
    if (req.method === 'POST' && req.url === '/subscribe') {
      void readBody(req).then(() => {
        res.writeHead(201, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify(subscribe()))
      })
      return
    }
    void handle(state, req, res)
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  state.origin = origin

  return {
    origin,
    subscribe,
    unsubscribe(endpoint) {
      const id = endpoint.slice(endpoint.lastIndexOf('/') + 1)
      const subscription = state.subscriptions.get(id)
      if (subscription) subscription.gone = true
    },
    failNext(...answers) {
      state.scripted.push(...answers)
    },
    deliveries: state.deliveries,
    requests: state.requests,
    waitForDeliveries(count, timeoutMs = 10_000) {
      return waitForDeliveries(state, count, timeoutMs)
    },
    close() {
      return new Promise((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()))
        server.closeAllConnections()
      })
    },
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) tooLarge = true
      else chunks.push(chunk)
    })
    req.on('end', () =>
      tooLarge
        ? reject(new Refusal(413, `body over ${MAX_BODY_BYTES} bytes`))
        : resolve(Buffer.concat(chunks)),
    )
    req.on('error', reject)
  })
}

/** RFC 8030 §5.2-5.4 and RFC 8291 §4: TTL required, Urgency and Topic well formed, aes128gcm. */
function checkHeaders(req: IncomingMessage): Pick<Delivery, 'ttl' | 'urgency' | 'topic'> {
  const ttlHeader = req.headers.ttl
  if (typeof ttlHeader !== 'string' || !/^[0-9]+$/.test(ttlHeader)) {
    throw new Refusal(400, 'TTL header missing or not a number')
  }
  const urgency = req.headers.urgency ?? 'normal'
  if (typeof urgency !== 'string' || !URGENCIES.has(urgency)) {
    throw new Refusal(400, `unknown urgency ${String(urgency)}`)
  }
  const topic = req.headers.topic
  if (topic !== undefined && (typeof topic !== 'string' || !/^[A-Za-z0-9_-]{1,32}$/.test(topic))) {
    throw new Refusal(400, 'topic must be at most 32 base64url characters')
  }
  if (req.headers['content-encoding'] !== 'aes128gcm') {
    throw new Refusal(415, 'Content-Encoding must be aes128gcm')
  }
  return { ttl: Number(ttlHeader), urgency, topic }
}

/**
 * RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`; the JWT is ES256,
 * signed by k, for this service's origin (aud), expiring within 24 hours
 * (exp), with a contact (sub, mailto: or https:). 401 when not, 403 when k is
 * not the key the subscription was made with.
 */
function checkVapid(
  header: string | undefined,
  origin: string,
  nowMs: number,
  subscription: Subscription,
  verified: Set<string>,
): Pick<Delivery, 'claims' | 'vapidKey'> {
  const match = /^vapid\s+(.*)$/i.exec(header ?? '')
  if (!match) throw new Refusal(401, 'Authorization must use the vapid scheme')
  const params = new Map<string, string>()
  for (const part of match[1]!.split(',')) {
    const eq = part.indexOf('=')
    if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim())
  }
  const jwt = params.get('t')
  const key = params.get('k')
  if (!jwt || !key) throw new Refusal(401, 'vapid needs t and k')
  const raw = Buffer.from(key, 'base64url')
  if (raw.length !== 65 || raw[0] !== 4) throw new Refusal(401, 'k is not a P-256 public key')
  const [head, body, signature] = jwt.split('.')
  if (!head || !body || !signature) throw new Refusal(401, 'malformed JWT')
  const header_ = parseJson(head)
  if (header_?.alg !== 'ES256') throw new Refusal(401, 'JWT alg must be ES256')
  if (!verified.has(`${jwt} ${key}`)) {
    const publicKey = createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: raw.subarray(1, 33).toString('base64url'),
        y: raw.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    })
    const signed = verify(
      'sha256',
      Buffer.from(`${head}.${body}`),
      { key: publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    )
    if (!signed) throw new Refusal(401, 'JWT signature does not match k')
    if (verified.size >= 10_000) verified.clear()
    verified.add(`${jwt} ${key}`)
  }
  const claims = parseJson(body)
  if (claims?.aud !== origin) throw new Refusal(401, `aud must be ${origin}`)
  const nowS = nowMs / 1000
  if (typeof claims.exp !== 'number' || claims.exp <= nowS) {
    throw new Refusal(401, 'JWT expired or without exp')
  }
  if (claims.exp > nowS + MAX_JWT_LIFETIME_S) throw new Refusal(401, 'exp more than 24 h ahead')
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) {
    throw new Refusal(401, 'sub must be a mailto: or https: contact')
  }
  if (subscription.applicationServerKey && subscription.applicationServerKey !== key) {
    throw new Refusal(403, 'k is not the key of this subscription')
  }
  return { claims: { aud: origin, exp: claims.exp, sub: claims.sub }, vapidKey: key }
}

function parseJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

// `node --import tsx api/push/local-push-service.ts [port]`: a push service a
// developer can point the app at; POST /subscribe returns a subscription to
// register, and every message it receives is printed decrypted.
if (import.meta.url === `file://${process.argv[1]}`) {
  const service = await startLocalPushService({
    port: Number(process.argv[2] ?? 0),
    onDelivery: (d) =>
      console.log(
        `push ${d.endpoint} ttl=${d.ttl} urgency=${d.urgency} topic=${d.topic ?? '-'}\n  ${d.payload.toString('utf8')}`,
      ),
  })
  console.log(`local push service at ${service.origin} (POST ${service.origin}/subscribe)`)
}
