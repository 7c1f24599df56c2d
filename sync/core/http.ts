// The API client of the sync worker. Every response is parsed with the
// contract's zod schema before it may reach the local store.

import { z } from 'zod'
import {
  ApiError,
  type EndpointDef,
  type EndpointName,
  type Endpoints,
  endpoints,
} from '../../api/contract/index.ts'
import { fail, ok, type Result } from './errors.ts'

/** Spec §7 "Other": every request names the app and the host it came from. */
export const clientHeaders = (): Record<string, string> => ({
  'X-Client-Package': 'amora-pwa',
  'X-Original-Host': self.location.host,
})

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  query?: Record<string, string | number | boolean | undefined>
  /** JSON-encoded, except FormData (multipart uploads) and URLSearchParams (form posts), sent as they are. */
  body?: unknown
  /** Aborting answers `{code: 'aborted'}` (a superseded request, spec §7 email check). */
  signal?: AbortSignal
}

/**
 * The polled reads (spec §9: user, chats, likes; the visitors, polled with
 * the likes) are conditional: the last
 * answer's ETag goes out as If-None-Match and a 304 (nothing changed, no
 * body) answers the answer kept here. Member data is `no-store` for the HTTP
 * cache, so the worker keeps the one copy per URL itself, in memory only;
 * forgetConditional() drops them all when a session ends.
 */
const CONDITIONAL: ReadonlySet<string> = new Set([
  endpoints.user.path,
  endpoints.chats.path,
  endpoints.likes.path,
  endpoints.visitors.path,
])
const lastAnswers = new Map<string, { etag: string; json: unknown }>()

export function forgetConditional(): void {
  lastAnswers.clear()
}

/** Retry-After in whole seconds: delta-seconds, or an HTTP date from now; else undefined. */
export function retryAfterOf(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined
  const value = header.trim()
  if (/^\d+$/.test(value)) return Number(value)
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}

async function call<S extends z.ZodType>(
  path: string,
  schema: S,
  { method = 'GET', query, body, signal }: RequestOptions = {},
): Promise<Result<z.output<S>>> {
  const url = new URL(path, self.location.origin)
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== '') url.searchParams.set(k, String(v))
  }
  // FormData (multipart) and URLSearchParams (a form post) go as they are,
  // with the Content-Type the browser gives them (the multipart boundary).
  const encoded = body instanceof FormData || body instanceof URLSearchParams
  const conditional = method === 'GET' && CONDITIONAL.has(path)
  const kept = conditional ? lastAnswers.get(url.href) : undefined
  let res: Response
  try {
    res = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: {
        ...clientHeaders(),
        ...(kept ? { 'If-None-Match': kept.etag } : {}),
        ...(body === undefined || encoded ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? null : encoded ? body : JSON.stringify(body),
      signal: signal ?? null,
    })
  } catch (e) {
    if (signal?.aborted) return fail({ code: 'aborted', message: 'superseded' })
    return fail({ code: 'offline', message: e instanceof Error ? e.message : String(e) })
  }
  const json: unknown =
    res.status === 304 && kept ? kept.json : await res.json().catch(() => undefined)
  // Aborted while the body was read: superseded as well, not a bad answer.
  if (signal?.aborted) return fail({ code: 'aborted', message: 'superseded' })
  if (conditional) {
    const etag = res.headers.get('ETag')
    if (res.ok && etag) lastAnswers.set(url.href, { etag, json })
    else if (res.status !== 304) lastAnswers.delete(url.href)
  }
  if (!res.ok && !(res.status === 304 && kept)) {
    const parsed = ApiError.safeParse(json)
    const status = res.status
    const retryAfterS = retryAfterOf(res.headers.get('Retry-After'))
    const wait = retryAfterS === undefined ? {} : { retryAfterS }
    if (!parsed.success) {
      return fail({ code: 'server_error', message: `HTTP ${status}`, status, ...wait })
    }
    const { error, message, field } = parsed.data
    return fail({
      code: error,
      message: message ?? error,
      status,
      ...(field ? { field } : {}),
      ...wait,
    })
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    return fail({ code: 'bad_response', message: `${path}: ${parsed.error.message}` })
  }
  return ok(parsed.data)
}

type Entry<K extends EndpointName> = Endpoints[K]
/** The query a caller may set for endpoint K (its fixed query is added by request()). */
export type QueryOf<K extends EndpointName> =
  Entry<K> extends { query: infer S extends z.ZodType }
    ? // A URL carries strings: the names are checked, the server parses the values.
      { [P in keyof z.input<S>]?: string | number | boolean | undefined }
    : never
/** The body of endpoint K: JSON per its schema, or FormData for uploads. */
export type BodyOf<K extends EndpointName> =
  Entry<K> extends { body: infer S extends z.ZodType }
    ? z.input<S>
    : Entry<K> extends { multipart: true }
      ? FormData
      : never
/** What endpoint K answers once parsed; null where it answers no JSON. */
export type ResponseOf<K extends EndpointName> = Entry<K>['response'] extends z.ZodType
  ? z.output<Entry<K>['response']>
  : null

export interface EndpointOptions<K extends EndpointName> {
  query?: QueryOf<K>
  body?: BodyOf<K>
  signal?: AbortSignal
}

/**
 * The address of endpoint `name` with its fixed query and `query` (defined,
 * non-empty values), as a same-origin path: `/api/x.php?a=1`. For what is
 * not a parsed call: a beacon sent with keepalive, a link the page opens
 * itself (a download, the webcam redirect). The path is the table's, so no
 * caller writes one.
 */
export function endpointUrl<K extends EndpointName>(name: K, query?: QueryOf<K>): string {
  const endpoint: EndpointDef = endpoints[name]
  const params = new URLSearchParams()
  const all: RequestOptions['query'] = {
    ...endpoint.fixedQuery,
    ...(query as RequestOptions['query']),
  }
  for (const [k, v] of Object.entries(all)) {
    if (v !== undefined && v !== '') params.set(k, String(v))
  }
  const search = params.toString()
  return search ? `${endpoint.path}?${search}` : endpoint.path
}

/** Answers without JSON (a 204 beacon, a redirect) parse to null. */
const NoJson = z.unknown().transform(() => null)

/**
 * Calls endpoint `name` of the contract's endpoint table: its method, path
 * and fixed query come from the table, the body goes as the entry says (JSON,
 * a form, or multipart), and its answer is parsed with the table's response
 * schema before anything may store it.
 */
export function request<K extends EndpointName>(
  name: K,
  options: EndpointOptions<K> = {},
): Promise<Result<ResponseOf<K>>> {
  const endpoint: EndpointDef = endpoints[name]
  const query = { ...endpoint.fixedQuery, ...(options.query as RequestOptions['query']) }
  // An entry marked `form` takes an HTML form's encoding, not JSON.
  const body =
    endpoint.form && options.body !== undefined
      ? new URLSearchParams(options.body as Record<string, string>)
      : options.body
  return call(endpoint.path, endpoint.response ?? NoJson, {
    method: endpoint.method,
    query,
    body,
    ...(options.signal ? { signal: options.signal } : {}),
  }) as Promise<Result<ResponseOf<K>>>
}
