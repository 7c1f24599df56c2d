// The API fuzzer, driven by the endpoint table: for every endpoint it sends
// generated inputs, valid-shaped (read from the endpoint's zod schemas) and
// hostile (wrong types, huge and unicode strings, arrays for scalars, extra
// fields such as credits or paid_user), signed in and not, and checks each
// answer: never a 5xx, a 2xx that fits the endpoint's response schema, never
// a 2xx for a request with something that is not an id in an id field, and a
// refused request that changed nothing in the database (but the unlock mail
// of a login refused with 429). Used by api/http/fuzz.test.ts (a few hundred
// per endpoint) and bench/fuzz.ts.
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import type { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { sessions } from '../../db/schema/index.ts'
import type { Api } from '../app.ts'
import { Id } from '../contract/common.ts'
import { type EndpointDef, endpoints } from '../contract/endpoints.ts'
import type { JobRunner } from '../jobs/queue.ts'
import { MAIL_SEND } from '../mail/mailer.ts'
import { vapidKeys } from '../settings/index.ts'
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

/** The schema inside optional/nullable/default wrappers. */
function unwrapped(schema: z.ZodType): z.ZodType {
  const def = defOf(schema)
  return ['optional', 'nullable', 'default', 'prefault', 'readonly'].includes(def.type)
    ? unwrapped(def.innerType as z.ZodType)
    : schema
}

/** Whether a field takes an id: every id of the contract is the one `Id` schema. */
const isIdField = (schema: z.ZodType) => unwrapped(schema) === Id

/** An id as the API takes it: a JSON number or ASCII digits, of a positive safe integer. */
const ID_DIGITS = /^[0-9]+$/
const isIdText = (s: string) =>
  ID_DIGITS.test(s) && Number.isSafeInteger(Number(s)) && Number(s) > 0
const isIdValue = (v: unknown) =>
  typeof v === 'number' ? Number.isSafeInteger(v) && v > 0 : typeof v === 'string' && isIdText(v)

/** Zero of decimal digits in scripts other than ASCII: Arabic-Indic, Persian, Devanagari, Bengali, Thai, fullwidth. */
const DIGIT_ZEROS = [0x660, 0x6f0, 0x966, 0x9e6, 0xe50, 0xff10]

/**
 * Id-shaped values that are not ids (api/contract/common.ts `Id`), each of
 * which `z.coerce.number()` once read as a number or refused with a riddle:
 * booleans, a one-element array (in a query, a repeated parameter), hex and
 * exponent strings, digits of other scripts, unsafe and non-positive numbers.
 */
function idJunk(ids: number[], where: 'query' | 'body'): fc.Arbitrary<unknown> {
  const n = fc.oneof(fc.constantFrom(...ids), fc.integer({ min: 1, max: 999 }))
  return fc.oneof(
    fc.boolean(),
    where === 'query' ? n.map((x) => [x, x]) : n.map((x) => [x]),
    n.map((x) => [String(x)]),
    n.map((x) => `0x${x.toString(16)}`),
    n.map((x) => `${x}e0`),
    fc.constantFrom('1e1', '1E1', '5e-0', '1e+1', 'Infinity', 'NaN'),
    fc
      .tuple(n, fc.constantFrom(...DIGIT_ZEROS))
      .map(([x, zero]) =>
        String(x).replace(/[0-9]/g, (d) => String.fromCodePoint(zero + Number(d))),
      ),
    fc.constantFrom(
      2 ** 53,
      2 ** 53 + 2,
      1e21,
      Number.MAX_VALUE,
      '9007199254740993',
      '1'.repeat(400),
    ),
    fc.constantFrom(0, -1, 1.5, -(2 ** 53), '0', '-1', '+1', ' 1', '1 ', '1.0', '1_000', '', null),
  )
}

/** Plausible values of an id field: the members' ids (as numbers or digits) and small numbers. */
const plausibleId = (ids: number[]) =>
  fc.oneof(
    fc.constantFrom(...ids),
    fc.constantFrom(...ids).map(String),
    fc.integer({ min: 1, max: 100 }),
  )

/**
 * What the database holds that a plausible input may name: the members' ids
 * and their addresses (a login to a real account, which a lock mails).
 */
interface Known {
  ids: number[]
  emails: string[]
}

/** Values of the schema's own shape: enum members, literals, small ids, plausible text. */
function plausible(schema: z.ZodType, known: Known): fc.Arbitrary<unknown> {
  const { ids } = known
  if (schema === Id) return plausibleId(ids)
  const def = defOf(schema)
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return plausible(def.innerType as z.ZodType, known)
    case 'pipe':
      return plausible(def.in as z.ZodType, known)
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
      return fc.array(plausible(def.element as z.ZodType, known), { maxLength: 3 })
    case 'object':
      return plausibleObject(schema, known, 'body')
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map((o) => plausible(o, known)))
    default:
      return fc.oneof(
        fc.uuid(),
        fc.emailAddress(),
        fc.constantFrom(
          'NL',
          'BE',
          'female',
          'male',
          'a',
          '1',
          'demo@example.com',
          ...known.emails,
        ),
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
 * covers missing fields. An id field gets id-shaped junk as well (1 in 5).
 */
function plausibleObject(
  schema: z.ZodType | undefined,
  known: Known,
  where: 'query' | 'body',
): fc.Arbitrary<unknown> {
  const fields = Object.entries(shapeOf(schema))
  const model: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [k, s] of fields) {
    model[k] = fc.oneof(
      { weight: 3, arbitrary: plausible(s, known) },
      { weight: 1, arbitrary: hostile },
      ...(isIdField(s) ? [{ weight: 1, arbitrary: idJunk(known.ids, where) }] : []),
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
export function casesFor(
  endpoint: EndpointDef,
  ids: number[],
  count: number,
  seed: number,
  emails: string[] = [],
) {
  const known = { ids, emails }
  const queryObject = plausibleObject(endpoint.query, known, 'query')
  const bodyObject = plausibleObject(endpoint.body, known, 'body')
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
 * The id fields of a request that hold something that is not an id, as sent:
 * in the query, anything but one parameter of ASCII digits; in the JSON body,
 * anything but a positive safe integer or its digits. An absent optional id
 * is no junk. A 2xx for any of them is a rule broken (docs/security.md).
 */
export function junkIdFields(endpoint: EndpointDef, c: FuzzCase): string[] {
  const junk: string[] = []
  for (const [k, s] of Object.entries(shapeOf(endpoint.query))) {
    if (!isIdField(s)) continue
    const values = c.query.filter(([key]) => key === k).map(([, v]) => v)
    if (values.length > 1 || (values.length === 1 && !isIdText(values[0]!))) junk.push(k)
  }
  // What the server reads: the body after a JSON round trip (undefined dropped, NaN as null).
  const body: unknown = c.body === undefined ? undefined : JSON.parse(JSON.stringify(c.body))
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    for (const [k, s] of Object.entries(shapeOf(endpoint.body))) {
      if (
        isIdField(s) &&
        Object.hasOwn(body, k) &&
        !isIdValue((body as Record<string, unknown>)[k])
      )
        junk.push(k)
    }
  }
  return junk
}

/**
 * A cheap fingerprint of the data a refused request must not touch: a
 * counter that a row trigger on every table bumps in the writing transaction
 * (so a rolled-back write leaves it as it was), and beside it a log of the
 * rows written (table, operation, the row before and after), which
 * `takeChanges` reads. Left out: rate_limits (counting refused attempts is
 * their job) and sessions (a request renews its last use), and with the last
 * use the member's seen time (members.public_seen_at, which a trigger keeps
 * from it: docs/live.md), an update of nothing else of a member.
 * `installChangeCounter` sets it up on a test database, where it also makes
 * what the server makes before serving (the VAPID keys), off the log.
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
    sql`CREATE TABLE fuzz_change_log (
          seq bigserial PRIMARY KEY, tbl text NOT NULL, op text NOT NULL, old jsonb, new jsonb)`,
  )
  await db.execute(
    sql.raw(`CREATE FUNCTION fuzz_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_TABLE_NAME = 'members' AND TG_OP = 'UPDATE'
          AND to_jsonb(NEW) - 'public_seen_at' = to_jsonb(OLD) - 'public_seen_at' THEN
          RETURN NULL;
        END IF;
        UPDATE fuzz_changes SET n = n + 1;
        INSERT INTO fuzz_change_log (tbl, op, old, new) VALUES (TG_TABLE_NAME, TG_OP,
          CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END,
          CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END);
        RETURN NULL;
      END $$`),
  )
  for (const { name } of tables) {
    await db.execute(
      sql.raw(`CREATE TRIGGER fuzz_count AFTER INSERT OR UPDATE OR DELETE ON "${name}"
        FOR EACH ROW EXECUTE FUNCTION fuzz_count()`),
    )
  }
  // The site's VAPID keys exist before the first request, as api/start.ts
  // makes them: made on first use instead, they would be blamed on whichever
  // request first loads the settings (a login refused with 429 among them).
  await vapidKeys(db)
  await takeChanges(db)
}

export async function fingerprint(db: Db): Promise<string> {
  return String(rowsOf<{ n: string }>(await db.execute(sql`SELECT n FROM fuzz_changes`))[0]?.n)
}

/** One row written: its table, INSERT/UPDATE/DELETE, and the row before and after (columns by SQL name). */
export interface RowChange {
  tbl: string
  op: 'INSERT' | 'UPDATE' | 'DELETE'
  old: Record<string, unknown> | null
  new: Record<string, unknown> | null
}

/** The rows written since the last call, in order (and forgets them). */
export async function takeChanges(db: Db): Promise<RowChange[]> {
  const rows = rowsOf<RowChange & { seq: string | number }>(
    await db.execute(sql`DELETE FROM fuzz_change_log RETURNING seq, tbl, op, old, new`),
  )
  return rows
    .sort((a, b) => Number(a.seq) - Number(b.seq))
    .map(({ tbl, op, old, new: after }) => ({ tbl, op, old, new: after }))
}

/**
 * The one write a refused request may make: a login refused with 429 mails
 * the account's owner a one-time unlock link (api/accounts/login-unlock.ts,
 * the first refusal of a window). That is exactly one `login_unlock` token,
 * one `login_unlock` mail of the same member and its `mail.send` job, then
 * the delivery of that mail: updates of that mail row (sent_at, error only)
 * and of that job row (never its kind or payload), and its removal. Anything
 * else written, or any of them twice, is a rule broken.
 */
export function isLoginUnlockMail(changes: RowChange[]): boolean {
  const inserts = changes.filter((c) => c.op === 'INSERT')
  const [token, mail, job] = ['account_tokens', 'mails', 'jobs'].map((t) =>
    inserts.filter((c) => c.tbl === t),
  )
  if (inserts.length !== 3 || token?.length !== 1 || mail?.length !== 1 || job?.length !== 1)
    return false
  const t = token[0]!.new!
  const m = mail[0]!.new!
  const j = job[0]!.new!
  if (t.kind !== 'login_unlock' || m.kind !== 'login_unlock' || t.member_id !== m.member_id)
    return false
  if (j.kind !== MAIL_SEND || (j.payload as { mailId?: unknown } | null)?.mailId !== m.id)
    return false
  const without = (row: Record<string, unknown> | null, keys: string[]) =>
    JSON.stringify(Object.entries(row ?? {}).filter(([k]) => !keys.includes(k)))
  const JOB_STATE = ['status', 'attempts', 'run_at', 'locked_until', 'last_error', 'finished_at']
  return changes.every((c) => {
    if (c.op === 'INSERT') return true
    if (c.tbl === 'mails' && c.op === 'UPDATE' && c.old?.id === m.id)
      return without(c.old, ['sent_at', 'error']) === without(c.new, ['sent_at', 'error'])
    if (c.tbl === 'jobs' && c.op === 'UPDATE' && c.old?.id === j.id)
      return without(c.old, JOB_STATE) === without(c.new, JOB_STATE)
    return c.tbl === 'jobs' && c.op === 'DELETE' && c.old?.id === j.id
  })
}

/**
 * The rule a refused request breaks by what it wrote, or null: a 4xx changes
 * nothing in the database, but the unlock mail of a login refused with 429.
 */
export function refusalProblem(
  endpoint: string,
  status: number,
  changes: RowChange[],
): string | null {
  if (status < 400 || changes.length === 0) return null
  if (endpoint === 'login' && status === 429 && isLoginUnlockMail(changes)) return null
  // Which tables, so a report says where to look.
  const what = [...new Set(changes.map((c) => `${c.op} ${c.tbl}`))].join(', ')
  return `refused with ${status} but changed the database (${what})`
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
  /** Logins refused with 429 that mailed the unlock link: the one write a refusal may make. */
  unlockMails: number
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
    /** The members' addresses: plausible text names them too (a login to a real account). */
    emails?: string[]
    cookie: () => Promise<string>
    /** The app's job queue (createApi's `jobs`): its work after an answer is the request's doing. */
    jobs: Pick<JobRunner, 'idle'>
    /** Only the pairs whose index is `index` modulo `count` (a long run split over processes). */
    shard?: { index: number; count: number }
    /** Called after each pair with the totals so far (a long run reports as it goes). */
    onPair?: (name: string, stats: FuzzStats) => void
  },
): Promise<FuzzStats> {
  const stats: FuzzStats = { requests: 0, byStatus: {}, failures: [], unlockMails: 0 }
  // What the set-up wrote is no request's doing.
  await opts.jobs.idle()
  await takeChanges(db)
  for (const [index, [name, endpoint]] of FUZZED.entries()) {
    if (opts.shard && index % opts.shard.count !== opts.shard.index) continue
    // A new session per endpoint: a fuzzed logout or session end may have ended the last.
    const cookie = await opts.cookie()
    for (const c of casesFor(
      endpoint,
      opts.ids,
      opts.perEndpoint,
      opts.seed + index,
      opts.emails,
    )) {
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
      if (res.status >= 200 && res.status < 300) {
        for (const field of junkIdFields(endpoint, c)) fail(`2xx with ${field} not an id`)
      }
      // The work a request left to the job queue (a mail's delivery) is its own.
      await opts.jobs.idle()
      const changes = await takeChanges(db)
      const problem = refusalProblem(name, res.status, changes)
      if (problem) fail(problem)
      else if (res.status >= 400 && changes.length > 0) stats.unlockMails++
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
