// Sending one push message to one subscription (RFC 8030 + RFC 8291 + RFC
// 8292), and what the push service's answer means (verdictOf). job.ts runs
// a fan-out through it.
//
// Encryption (aes128gcm) and the VAPID JWT come from the web-push package;
// the HTTP request is ours: web-push always speaks https and opens a
// connection per message, while a fan-out wants pooled keep-alive
// connections, and the local push service (tests, benchmark) speaks http.
import http from 'node:http'
import https from 'node:https'
import webpush from 'web-push'
import { backoffMs, RetryAfter } from '../jobs/queue.ts'
import type { VapidKeys } from '../settings/index.ts'

/**
 * A push service answered 429 or 5xx, or could not be reached: send again
 * after `delayMs` (its Retry-After when it gave one). The job runner takes the
 * delay from RetryAfter.
 */
export class RetryLater extends RetryAfter {}

export type Urgency = 'very-low' | 'low' | 'normal' | 'high'

export interface PushMessageOptions {
  ttl: number
  urgency: Urgency
  topic?: string | undefined
}

/** A subscription's p256dh/auth cannot be encrypted to (not a P-256 key, short secret). */
export class SubscriptionKeyError extends Error {}

/** The push service's answer: its status and Retry-After header. */
export interface PushResponse {
  status: number
  retryAfter: string | undefined
}

export interface SenderOptions {
  vapid: VapidKeys
  /** VAPID contact (RFC 8292 sub): mailto: or https:. See vapidSubject(). */
  subject: string
  /**
   * Origins that may be reached over plain http: only the local push service
   * (tests, benchmark, development). Every real push service is https.
   */
  allowHttpOrigins?: readonly string[]
  /** Connections kept per push service origin. */
  maxSockets?: number
  /** Give up on an answer after this long (then retry later). */
  timeoutMs?: number
  now?: () => number
}

export interface PushSender {
  /** Encrypts and posts one message; network failures reject. */
  send(
    subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
    payload: string | Buffer,
    options: PushMessageOptions,
  ): Promise<PushResponse>
  /** Whether an endpoint may be sent to at all (https, or an allowed http origin). */
  allows(endpoint: string): boolean
  close(): void
}

/** A VAPID JWT lives 12 h (RFC 8292 allows 24) and is renewed with an hour to spare. */
const JWT_LIFETIME_S = 12 * 60 * 60
const JWT_RENEW_S = 60 * 60

/**
 * The VAPID contact: VAPID_SUBJECT, else the site's https address, else the
 * sender address of its mails. Push services use it to reach the operator.
 */
export function vapidSubject(env: NodeJS.ProcessEnv = process.env): string {
  if (env.VAPID_SUBJECT && /^(mailto:|https:)/.test(env.VAPID_SUBJECT)) return env.VAPID_SUBJECT
  if (env.PUBLIC_URL?.startsWith('https://')) return env.PUBLIC_URL
  const address = /<([^>]+)>/.exec(env.MAIL_FROM ?? '')?.[1] ?? env.MAIL_FROM
  return `mailto:${address?.includes('@') ? address : 'no-reply@localhost'}`
}

/** A VAPID Authorization header and the expiry of its JWT, per push service origin. */
type JwtCache = Map<string, { authorization: string; exp: number }>

/** The Authorization header for a push service origin: the cached one unless close to expiry, else a new JWT. */
function vapidAuthorization(
  jwts: JwtCache,
  options: SenderOptions,
  nowMs: number,
  audience: string,
): string {
  const nowS = Math.floor(nowMs / 1000)
  const cached = jwts.get(audience)
  if (cached && cached.exp - nowS > JWT_RENEW_S) return cached.authorization
  const exp = nowS + JWT_LIFETIME_S
  const headers = webpush.getVapidHeaders(
    audience,
    options.subject,
    options.vapid.publicKey,
    options.vapid.privateKey,
    'aes128gcm',
    exp,
  )
  jwts.set(audience, { authorization: headers.Authorization, exp })
  return headers.Authorization
}

/** Whether an endpoint is https, or http on one of the allowed origins. */
function endpointAllowed(allowHttp: ReadonlySet<string>, endpoint: string): boolean {
  if (!URL.canParse(endpoint)) return false
  const url = new URL(endpoint)
  return url.protocol === 'https:' || (url.protocol === 'http:' && allowHttp.has(url.origin))
}

/** The request headers of an encrypted message (RFC 8030, RFC 8291, RFC 8292). */
function messageHeaders(
  message: PushMessageOptions,
  length: number,
  authorization: string,
): Record<string, string | number> {
  const headers: Record<string, string | number> = {
    TTL: message.ttl,
    Urgency: message.urgency,
    'Content-Encoding': 'aes128gcm',
    'Content-Type': 'application/octet-stream',
    'Content-Length': length,
    Authorization: authorization,
  }
  if (message.topic) headers.Topic = message.topic
  return headers
}

/** Posts an encrypted message on the agent's pooled connections; resolves with the service's answer. */
function postMessage(
  url: URL,
  headers: Record<string, string | number>,
  cipherText: Buffer,
  agents: { http: http.Agent; https: https.Agent },
): Promise<PushResponse> {
  const secure = url.protocol === 'https:'
  const request = secure ? https.request : http.request
  return new Promise<PushResponse>((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers, agent: secure ? agents.https : agents.http },
      (res) => {
        res.resume() // the body says nothing we act on; drain it to reuse the connection
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: headerValue(res.headers['retry-after']),
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error('push service timed out')))
    req.on('error', reject)
    req.end(cipherText)
  })
}

export function createPushSender(options: SenderOptions): PushSender {
  const now = options.now ?? Date.now
  const allowHttp = new Set(options.allowHttpOrigins ?? [])
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? 64,
    timeout: options.timeoutMs ?? 10_000,
  }
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) }
  // One JWT per push service origin, reused until close to its expiry: signing
  // per message would cost an ECDSA signature each and push services accept
  // (and recommend) reuse.
  const jwts: JwtCache = new Map()

  const allows = (endpoint: string): boolean => endpointAllowed(allowHttp, endpoint)

  return {
    allows,
    send(subscription, payload, message) {
      if (!allows(subscription.endpoint)) {
        return Promise.reject(new Error(`endpoint not allowed: ${subscription.endpoint}`))
      }
      const url = new URL(subscription.endpoint)
      let cipherText: Buffer
      try {
        // RFC 8291: aes128gcm, the sender's ephemeral key in the body's header.
        ;({ cipherText } = webpush.encrypt(
          subscription.keys.p256dh,
          subscription.keys.auth,
          payload,
          'aes128gcm',
        ))
      } catch (e) {
        return Promise.reject(new SubscriptionKeyError(errorText(e)))
      }
      const authorization = vapidAuthorization(jwts, options, now(), url.origin)
      const headers = messageHeaders(message, cipherText.length, authorization)
      return postMessage(url, headers, cipherText, agents)
    },
    close() {
      agents.http.destroy()
      agents.https.destroy()
    },
  }
}

const headerValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)

/** What an answer means for the subscription and the job. */
export type PushVerdict =
  | { kind: 'sent' }
  /** 404/410: the subscription is gone for good (RFC 8030 §7.3): forget it. */
  | { kind: 'gone' }
  /** 429/5xx: try again after the delay. */
  | { kind: 'retry'; delayMs: number }
  /** 401/403: our VAPID key or JWT is refused; retrying cannot help. */
  | { kind: 'vapid' }
  /** Any other answer (400, 413, ...): this message can never be delivered. */
  | { kind: 'rejected' }

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3), in ms from now. */
export function retryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^[0-9]+$/.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs)
}

/** At least this long between tries, whatever Retry-After says (0 would spin). */
export const MIN_RETRY_MS = 1_000

export function verdictOf(response: PushResponse, nowMs: number, attempts = 1): PushVerdict {
  const { status } = response
  if (status >= 200 && status < 300) return { kind: 'sent' }
  if (status === 404 || status === 410) return { kind: 'gone' }
  if (status === 429 || status >= 500) {
    const asked = retryAfterMs(response.retryAfter, nowMs)
    return { kind: 'retry', delayMs: Math.max(MIN_RETRY_MS, asked ?? backoffMs(attempts)) }
  }
  if (status === 401 || status === 403) return { kind: 'vapid' }
  return { kind: 'rejected' }
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))
