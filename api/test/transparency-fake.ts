// A local stand-in of the EU DSA Transparency Database's submission API
// (POST /api/v1/statement, bearer token), for tests: it checks the token and
// the fields a statement must carry, refuses a puid it already holds (422, as
// the database does), answers 201 with the statement and a uuid, and can be
// told to fail the next requests (500) to exercise the retries.
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface TransparencyFake {
  url: string
  token: string
  /** Accepted statements, by puid. */
  statements: Map<string, Record<string, unknown>>
  /** Every request: method, path and status answered. */
  calls: { path: string; status: number }[]
  /** The next `n` requests answer 500. */
  failNext(n: number): void
  close(): Promise<void>
}

const REQUIRED = [
  'decision_ground',
  'category',
  'content_type',
  'application_date',
  'decision_facts',
  'source_type',
  'automated_detection',
  'automated_decision',
  'territorial_scope',
  'puid',
] as const

const DECISIONS = [
  'decision_visibility',
  'decision_monetary',
  'decision_provision',
  'decision_account',
] as const

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ''
    req.on('data', (chunk) => {
      text += chunk
    })
    req.on('end', () => resolve(text))
  })

/** What is wrong with a statement, field by field (empty: valid). */
export function statementErrors(s: Record<string, unknown>): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const no = (field: string, why: string) => {
    errors[field] = [...(errors[field] ?? []), why]
  }
  for (const f of REQUIRED)
    if (s[f] === undefined || s[f] === '') no(f, `The ${f} field is required.`)
  if (!DECISIONS.some((d) => s[d] !== undefined))
    no('decision_visibility', 'At least one decision is required.')
  if (
    s.decision_ground === 'DECISION_GROUND_INCOMPATIBLE_CONTENT' &&
    (!s.incompatible_content_ground || !s.incompatible_content_explanation)
  )
    no('incompatible_content_ground', 'Required for incompatible content.')
  if (s.decision_ground === 'DECISION_GROUND_ILLEGAL_CONTENT' && !s.illegal_content_legal_ground)
    no('illegal_content_legal_ground', 'Required for illegal content.')
  if (!Array.isArray(s.content_type)) no('content_type', 'The content type must be an array.')
  if (!Array.isArray(s.territorial_scope)) no('territorial_scope', 'Must be an array.')
  if (typeof s.category !== 'string' || !s.category.startsWith('STATEMENT_CATEGORY_'))
    no('category', 'The selected category is invalid.')
  for (const d of ['application_date', 'content_date'])
    if (s[d] !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(String(s[d])))
      no(d, 'The date must be YYYY-MM-DD.')
  if (
    Array.isArray(s.decision_visibility) &&
    s.decision_visibility.includes('DECISION_VISIBILITY_OTHER') &&
    !s.decision_visibility_other
  )
    no('decision_visibility_other', 'Required with DECISION_VISIBILITY_OTHER.')
  return errors
}

export async function startTransparencyFake(token = 'tdb-test-token'): Promise<TransparencyFake> {
  const statements = new Map<string, Record<string, unknown>>()
  const calls: { path: string; status: number }[] = []
  let failing = 0
  const server = createServer(async (req, res) => {
    const answer = (status: number, json: unknown) => {
      calls.push({ path: `${req.method} ${req.url}`, status })
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(json))
    }
    const text = await body(req)
    if (req.method !== 'POST' || req.url !== '/api/v1/statement')
      return answer(404, { message: 'Not Found' })
    if (req.headers.authorization !== `Bearer ${token}`)
      return answer(401, { message: 'Unauthenticated.' })
    if (failing > 0) {
      failing--
      return answer(500, { message: 'Server Error' })
    }
    let s: Record<string, unknown>
    try {
      s = JSON.parse(text) as Record<string, unknown>
    } catch {
      return answer(400, { message: 'Invalid JSON' })
    }
    const errors = statementErrors(s)
    if (Object.keys(errors).length > 0) return answer(422, { message: 'Invalid statement', errors })
    const puid = String(s.puid)
    if (statements.has(puid))
      return answer(422, {
        message: 'The identifier given is not unique within this platform.',
        errors: { puid: ['The identifier given is not unique within this platform.'] },
      })
    const uuid = randomUUID()
    statements.set(puid, s)
    return answer(201, { ...s, uuid })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    statements,
    calls,
    failNext(n) {
      failing = n
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
