// The API fuzzer, driven by the endpoint table: for every endpoint it sends
// generated inputs, valid-shaped (read from the endpoint's zod schemas) and
// hostile (wrong types, huge and unicode strings, arrays for scalars, extra
// fields such as credits or paid_user), signed in and not, and checks each
// answer: never a 5xx, a 2xx that fits the endpoint's response schema, and a
// refused request that changed nothing in the database. Used by
// api/http/fuzz.test.ts (a few hundred per endpoint) and bench/fuzz.ts.
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import type { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { sessions } from '../../db/schema/index.ts'
import type { Api } from '../app.ts'
import { type EndpointDef, endpoints } from '../contract/endpoints.ts'
import { hashToken } from '../shared/tokens.ts'

/** Streams (events) never end; everything else in the table is fuzzed. */
export const FUZZED = (Object.entries(endpoints) as [string, EndpointDef][]).filter(
  ([name]) => name !== 'events',
)

/** Fields a client must never set, sent along to see that none is taken. */
const EXTRA_FIELDS = ['credits', 'paid_user', 'email', 'id', 'member_id', 'activated', 'is_admin']

const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 53 + 2, 1.5, Number.MAX_SAFE_INTEGER),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', '1', '0', 'true', '-5', '1e3', '0x10', '１２', '٣', '\u0000', '\ud800'),
  fc.constant('x'.repeat(5_000)),
  fc.uuid(),
  fc.emailAddress(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
)

type Def = { type: string; [k: string]: unknown }
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def

/** Values of the schema's own shape: enum members, literals, small ids, plausible text. */
function plausible(schema: z.ZodType, ids: number[]): fc.Arbitrary<unknown> {
  const def = defOf(schema)
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return plausible(def.innerType as z.ZodType, ids)
    case 'pipe':
      return plausible(def.in as z.ZodType, ids)
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string>))
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]))
    case 'number':
    case 'int':
    case 'bigint':
      return fc.oneof(fc.constantFrom(...ids), fc.integer({ min: 1, max: 100 }))
    case 'boolean':
      return fc.boolean()
    case 'array':
      return fc.array(plausible(def.element as z.ZodType, ids), { maxLength: 3 })
    case 'object':
      return plausibleObject(schema, ids)
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map((o) => plausible(o, ids)))
    default:
      return fc.oneof(
        fc.uuid(),
        fc.emailAddress(),
        fc.constantFrom('NL', 'BE', 'female', 'male', 'a', '1', 'demo@example.com'),
        fc.string({ maxLength: 20 }),
      )
  }
}

function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  if (!schema) return {}
  const def = defOf(schema)
  if (def.type === 'object') return def.shape as Record<string, z.ZodType>
  if (def.type === 'pipe') return shapeOf(def.in as z.ZodType)
  return {}
}

/**
 * An object with every field of the schema, each plausible (3 in 4) or
 * hostile, plus any of the extra fields; a wholly hostile body (casesFor)
 * covers missing fields.
 */
function plausibleObject(schema: z.ZodType | undefined, ids: number[]): fc.Arbitrary<unknown> {
  const fields = Object.entries(shapeOf(schema))
  const model: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [k, s] of fields) {
    model[k] = fc.oneof(
      { weight: 3, arbitrary: plausible(s, ids) },
      { weight: 1, arbitrary: hostile },
    )
  }
  for (const k of EXTRA_FIELDS) model[k] ??= hostile
  return fc.record(model, { requiredKeys: fields.map(([k]) => k) })
}

export interface FuzzCase {
  query: [string, string][]
  body: unknown
  signedIn: boolean
}

const asParam = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)

/** Query pairs of a value: arrays become repeated parameters (arrays for scalars). */
const pairs = (key: string, v: unknown): [string, string][] =>
  Array.isArray(v) ? v.map((x) => [key, asParam(x)] as [string, string]) : [[key, asParam(v)]]

/** Inputs for one endpoint: mostly its own shape with hostile values mixed in, some wholly hostile. */
export function casesFor(endpoint: EndpointDef, ids: number[], count: number, seed: number) {
  const queryObject = plausibleObject(endpoint.query, ids)
  const bodyObject = plausibleObject(endpoint.body, ids)
  const body = endpoint.body
    ? fc.oneof({ weight: 5, arbitrary: bodyObject }, { weight: 1, arbitrary: hostile })
    : fc.oneof(fc.constant(undefined), hostile)
  const arb = fc.record({
    query: endpoint.query
      ? queryObject.map((o) =>
          Object.entries(o as Record<string, unknown>).flatMap(([k, v]) =>
            v === undefined ? [] : pairs(k, v),
          ),
        )
      : fc.constant([] as [string, string][]),
    body: endpoint.method === 'GET' ? fc.constant(undefined) : body,
    signedIn: fc.boolean(),
  })
  return fc.sample(arb, { numRuns: count, seed }) as FuzzCase[]
}

/**
 * A cheap fingerprint of the data a refused request must not touch: a
 * counter that a row trigger on every table bumps in the writing transaction
 * (so a rolled-back write leaves it as it was). Left out: rate_limits
 * (counting refused attempts is their job) and sessions (a request renews its
 * last use), and with the last use the member's seen time
 * (members.public_seen_at, which a trigger keeps from it: docs/live.md), an
 * update of nothing else of a member. `installChangeCounter` sets it up on a
 * test database.
 */
export async function installChangeCounter(db: Db): Promise<void> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(
      sql`SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
            AND table_name NOT IN ('rate_limits', 'sessions')`,
    ),
  )
  await db.execute(sql`CREATE TABLE fuzz_changes (n bigint NOT NULL)`)
  await db.execute(sql`INSERT INTO fuzz_changes VALUES (0)`)
  await db.execute(
    sql.raw(`CREATE FUNCTION fuzz_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_TABLE_NAME = 'members' AND TG_OP = 'UPDATE'
          AND to_jsonb(NEW) - 'public_seen_at' = to_jsonb(OLD) - 'public_seen_at' THEN
          RETURN NULL;
        END IF;
        UPDATE fuzz_changes SET n = n + 1; RETURN NULL;
      END $$`),
  )
  for (const { name } of tables) {
    await db.execute(
      sql.raw(`CREATE TRIGGER fuzz_count AFTER INSERT OR UPDATE OR DELETE ON "${name}"
        FOR EACH ROW EXECUTE FUNCTION fuzz_count()`),
    )
  }
}

export async function fingerprint(db: Db): Promise<string> {
  return String(rowsOf<{ n: string }>(await db.execute(sql`SELECT n FROM fuzz_changes`))[0]?.n)
}

/** pg answers {rows}, PGlite's drizzle too; either way the rows. */
const rowsOf = <T>(result: unknown): T[] =>
  result && typeof result === 'object' && 'rows' in result ? (result.rows as T[]) : (result as T[])

export interface FuzzFailure {
  endpoint: string
  request: string
  problem: string
}

export interface FuzzStats {
  requests: number
  byStatus: Record<string, number>
  failures: FuzzFailure[]
}

/**
 * Sends every case of every endpoint, one at a time, and records what broke
 * a rule. `cookie` logs a member in again (a fuzzed logout may end it).
 */
export async function fuzz(
  app: Api,
  db: Db,
  opts: {
    perEndpoint: number
    seed: number
    ids: number[]
    cookie: () => Promise<string>
    /** Only the pairs whose index is `index` modulo `count` (a long run split over processes). */
    shard?: { index: number; count: number }
    /** Called after each pair with the totals so far (a long run reports as it goes). */
    onPair?: (name: string, stats: FuzzStats) => void
  },
): Promise<FuzzStats> {
  const stats: FuzzStats = { requests: 0, byStatus: {}, failures: [] }
  let before = await fingerprint(db)
  for (const [index, [name, endpoint]] of FUZZED.entries()) {
    if (opts.shard && index % opts.shard.count !== opts.shard.index) continue
    // A new session per endpoint: a fuzzed logout or session end may have ended the last.
    const cookie = await opts.cookie()
    for (const c of casesFor(endpoint, opts.ids, opts.perEndpoint, opts.seed + index)) {
      const url = new URL(`http://localhost${endpoint.path}`)
      for (const [k, v] of Object.entries(endpoint.fixedQuery ?? {})) url.searchParams.set(k, v)
      for (const [k, v] of c.query) url.searchParams.append(k, v)
      const headers: Record<string, string> = { host: 'localhost' }
      if (c.signedIn) headers.cookie = cookie
      const raw = c.body === undefined ? undefined : JSON.stringify(c.body)
      if (raw !== undefined) headers['content-type'] = 'application/json'
      if (endpoint.method !== 'GET') headers.origin = 'http://localhost'
      const res = await app.request(url.href, { method: endpoint.method, headers, body: raw })
      stats.requests++
      stats.byStatus[res.status] = (stats.byStatus[res.status] ?? 0) + 1
      const request = `${endpoint.method} ${url.pathname}${url.search} ${(raw ?? '').slice(0, 300)}`
      const fail = (problem: string) => stats.failures.push({ endpoint: name, request, problem })
      if (res.status >= 500) fail(`status ${res.status}: ${await res.text()}`)
      else if (res.status < 300 && endpoint.response) {
        const isJson = res.headers.get('content-type')?.includes('json')
        const parsed = isJson ? endpoint.response.safeParse(await res.json()) : undefined
        if (!parsed?.success) fail(`2xx does not fit the response schema`)
      }
      if (res.status >= 400) {
        const after = await fingerprint(db)
        if (after !== before) fail(`refused with ${res.status} but changed the database`)
        before = after
      } else {
        before = await fingerprint(db)
      }
    }
    opts.onPair?.(name, stats)
  }
  return stats
}

/**
 * A session made in the database, not through login.php: the fuzzer's own
 * login attempts would soon be rate-limited (that is the point of the limit).
 */
export async function sessionCookie(db: Db, memberId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    memberId,
    expiresAt: new Date(Date.now() + 3_600_000),
  })
  return `sid=${token}`
}
