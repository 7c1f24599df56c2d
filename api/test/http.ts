// Requests against the API value, the way a browser on the site's own origin
// sends them: Host set, Origin on state-changing requests, the session cookie.
import { expect } from 'vitest'
import type { Api } from '../app.ts'

/** Where app.request() pretends the site lives unless a test says otherwise. */
export const BASE = 'http://localhost'

export interface SendOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD' | 'OPTIONS'
  /** A string is sent as is; anything else as JSON. */
  body?: unknown
  /** A whole Cookie header (`sid=...`), as login() returns it. */
  cookie?: string | undefined
  /**
   * The Origin header. Default: the request's own origin on methods other
   * than GET/HEAD (as browsers do), none on GET. `null` sends no Origin.
   */
  origin?: string | null
  /** Default application/json when there is a body. */
  contentType?: string | null
  headers?: Record<string, string>
  /** Scheme and host of the request; default BASE. */
  base?: string
}

/**
 * One request through `app.request`. Whatever the input, the API must never
 * answer 5xx: every test request checks that here.
 */
export async function send(app: Api, path: string, options: SendOptions = {}): Promise<Response> {
  const { method = 'GET', body, cookie, base = BASE } = options
  const url = new URL(path, base)
  const headers = new Headers({ host: url.host, ...options.headers })
  const origin =
    options.origin === undefined
      ? method === 'GET' || method === 'HEAD'
        ? null
        : url.origin
      : options.origin
  if (origin !== null) headers.set('origin', origin)
  if (cookie !== undefined) headers.set('cookie', cookie)
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType
  if (body !== undefined && contentType !== null) headers.set('content-type', contentType)
  const res = await app.request(url.href, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  expect(res.status, `${method} ${path} must not fail on the server`).toBeLessThan(500)
  return res
}

/** The `name=value` pair of a Set-Cookie header for `name`, if any. */
export function setCookie(res: Response, name = 'sid'): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))
}

/** The value of the session cookie a response sets. */
export function sessionToken(res: Response): string | undefined {
  return setCookie(res)?.split(';')[0]?.slice('sid='.length)
}

/** Logs in and returns the Cookie header to send with later requests. */
export async function login(
  app: Api,
  email: string,
  password: string,
  base = BASE,
): Promise<string> {
  const res = await send(app, '/api/login.php', {
    method: 'POST',
    body: { email, password },
    base,
  })
  expect(res.status, `login of ${email}`).toBe(200)
  const token = sessionToken(res)
  expect(token, 'a session cookie').toBeTruthy()
  return `sid=${token}`
}

/** The JSON body of a response (the caller parses it with a contract schema). */
export const json = (res: Response): Promise<unknown> => res.json()
