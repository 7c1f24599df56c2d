// Seeds the benchmark database with a million members, set-based: every
// INSERT is one `INSERT ... SELECT FROM generate_series` with random()
// expressions, so PostgreSQL generates the rows and nothing crosses the wire
// row by row. A million members with a picture each, a million likes and a
// hundred thousand chats take about a minute on a 2-core machine.
//
// The non-unique secondary indexes of the filled tables are dropped for the
// fill and built again afterwards (a sorted build is many times faster than a million
// random inserts into each btree). All of it runs in one transaction, so an
// interrupted seed rolls back to the previous state, indexes included.
import type pg from 'pg'
import { newestMessageUpdate } from '../db/newest-message.ts'
import { COUNTRIES } from '../db/reference/geo.ts'
import { allFirstNames, NOTE_SNIPPETS } from '../db/seed/names.ts'

/** Bumped when the generated data changes shape, so old seeds are redone. */
const SEED_VERSION = 3
const MARKER_KEY = 'bench_seed'

/**
 * Population in millions (2023, rounded): members per country follow it, so
 * the US holds about 40% of them and NZ under 1%, the extremes a search meets.
 */
const POPULATION: Record<string, number> = {
  US: 335,
  DE: 84,
  GB: 68,
  FR: 68,
  IT: 59,
  ES: 48,
  CA: 40,
  PL: 37,
  AU: 26,
  NL: 18,
  BE: 12,
  AT: 9,
  IE: 5,
  NZ: 5,
}

const BATCH = 100_000
/** Chats and likes among the other members, so those tables are not just the star's. */
const BACKGROUND_LIKES_PER_MEMBER = 1
const BACKGROUND_CONVERSATIONS_SHARE = 0.1
const MESSAGES_PER_BACKGROUND_CONVERSATION = 3
/** The member whose likes and chats lists are measured. */
const STAR_LIKES = 5_000
const STAR_CONVERSATIONS = 200
const STAR_MESSAGES = 30
/** Bench members cannot log in: this is no argon2 hash. */
const NO_LOGIN = '!bench-member-no-login'

export interface BenchPeople {
  /** Searches from NL: own country NL, neighbour BE (the demo member's situation). */
  viewerNl: number
  /** Searches from the US: own country US (the largest), neighbour CA. */
  viewerUs: number
  /** 5,000 likes given, 5,000 received, 200 conversations. */
  star: number
}

interface Marker extends BenchPeople {
  version: number
  members: number
}

type Log = (line: string) => void

const isMarker = (v: unknown): v is Marker =>
  typeof v === 'object' &&
  v !== null &&
  'version' in v &&
  'members' in v &&
  'star' in v &&
  'viewerNl' in v &&
  'viewerUs' in v

/** The people of an existing seed of `members` members, or null when it must be (re)done. */
export async function existingSeed(
  client: pg.Client,
  members: number,
): Promise<BenchPeople | null> {
  const { rows } = await client.query<{ value: unknown }>(
    'SELECT value FROM site_settings WHERE key = $1',
    [MARKER_KEY],
  )
  const v = rows[0]?.value
  return isMarker(v) && v.version === SEED_VERSION && v.members === members ? v : null
}

const timer = () => {
  const start = performance.now()
  return () => `${((performance.now() - start) / 1000).toFixed(1)} s`
}

const fmt = (n: number) => n.toLocaleString('en-US')

export async function seedMembers(
  client: pg.Client,
  total: number,
  log: Log,
): Promise<BenchPeople> {
  const elapsed = timer()
  await client.query('BEGIN')
  try {
    log('seed: emptying tables')
    await client.query('DELETE FROM site_settings WHERE key = $1', [MARKER_KEY])
    await client.query('TRUNCATE members RESTART IDENTITY CASCADE')
    const indexes = await dropSecondaryIndexes(client)
    log(`seed: dropped ${indexes.length} secondary indexes for the fill`)
    await lookupTables(client)
    for (let lo = 1; lo <= total; lo += BATCH) {
      const hi = Math.min(total, lo + BATCH - 1)
      await insertMembers(client, lo, hi)
      log(`seed: members ${fmt(hi)}/${fmt(total)} (${elapsed()})`)
    }
    await client.query(
      `INSERT INTO images (id, member_id, filename, thumb_filename, created_at)
       OVERRIDING SYSTEM VALUE
       SELECT id, id, 'bench-' || id || '.jpg', 'bench-' || id || '_t.jpg', signup_date FROM members`,
    )
    await client.query(`SELECT setval(pg_get_serial_sequence('members', 'id'), $1)`, [total])
    await client.query(`SELECT setval(pg_get_serial_sequence('images', 'id'), $1)`, [total])
    log(`seed: images ${fmt(total)} (${elapsed()})`)
    await sessionsAndPrivacy(client)
    log(`seed: sessions and privacy choices (${elapsed()})`)
    await backgroundSocial(client, total)
    log(`seed: background likes and chats (${elapsed()})`)
    const people = await specialPeople(client, total)
    log(`seed: star member ${people.star}, viewers ${people.viewerNl} (NL) ${people.viewerUs} (US)`)
    for (const [i, def] of indexes.entries()) {
      await client.query(def)
      log(`seed: index ${i + 1}/${indexes.length} built (${elapsed()})`)
    }
    const marker: Marker = { version: SEED_VERSION, members: total, ...people }
    await client.query('INSERT INTO site_settings (key, value) VALUES ($1, $2)', [
      MARKER_KEY,
      JSON.stringify(marker),
    ])
    await client.query('COMMIT')
    log(`seed: committed (${elapsed()})`)
    return people
  } catch (e) {
    await client.query('ROLLBACK')
    throw e
  }
}

/**
 * Drops the non-unique, non-constraint indexes of the filled tables; returns
 * their definitions. Unique ones stay: ON CONFLICT DO NOTHING needs them.
 */
async function dropSecondaryIndexes(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string; def: string }>(
    `SELECT i.indexname AS name, i.indexdef AS def
     FROM pg_indexes i
     WHERE i.schemaname = 'public'
       AND i.tablename IN ('members', 'images', 'likes', 'conversations',
                           'conversation_members', 'messages', 'sessions')
       AND i.indexdef NOT LIKE 'CREATE UNIQUE %'
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c
                       WHERE c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)`,
  )
  for (const r of rows) await client.query(`DROP INDEX ${quoteIdent(r.name)}`)
  return rows.map((r) => r.def)
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`

/** Countries (with cumulative population share) and regions, as temp tables for the joins. */
async function lookupTables(client: pg.Client): Promise<void> {
  const countries = COUNTRIES.filter((c) => POPULATION[c.id] !== undefined)
  const weights = countries.map((c) => POPULATION[c.id] ?? 0)
  const sum = weights.reduce((a, b) => a + b, 0)
  let acc = 0
  const lowerBounds = weights.map((w) => {
    const lo = acc / sum
    acc += w
    return lo
  })
  await client.query(
    `CREATE TEMP TABLE bench_country ON COMMIT DROP AS
     SELECT idx::int, code, language, lower_bound, nregions
     FROM unnest($1::text[], $2::text[], $3::float8[], $4::int[])
       WITH ORDINALITY AS t(code, language, lower_bound, nregions, idx)`,
    [
      countries.map((c) => c.id),
      countries.map((c) => c.language),
      lowerBounds,
      countries.map((c) => c.regions.length),
    ],
  )
  const regions = countries.flatMap((c, ci) =>
    c.regions.map((r, ri) => ({ ci: ci + 1, no: ri + 1, id: r.id, lang: r.language ?? null, r })),
  )
  await client.query(
    `CREATE TEMP TABLE bench_region ON COMMIT DROP AS
     SELECT ci, no, id, language, string_to_array(cities, '|') AS cities
     FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[])
       AS t(ci, no, id, language, cities)`,
    [
      regions.map((r) => r.ci),
      regions.map((r) => r.no),
      regions.map((r) => r.id),
      regions.map((r) => r.lang),
      regions.map((r) => r.r.cities.join('|')),
    ],
  )
}

/**
 * Every live member has a login session last used when they were last active
 * (so "last seen" has sessions to read, docs/live.md), and 5% hide when they
 * were online.
 */
async function sessionsAndPrivacy(client: pg.Client): Promise<void> {
  // members.public_seen_at and public_active_at are kept by triggers
  // (0027_last-seen.sql, 0029_public-activity.sql): row by row they would
  // update each member once per session; set them once instead.
  await client.query('ALTER TABLE sessions DISABLE TRIGGER sessions_public_seen')
  await client.query('ALTER TABLE member_privacy DISABLE TRIGGER privacy_public_seen')
  await client.query('ALTER TABLE member_privacy DISABLE TRIGGER privacy_public_active')
  await client.query(
    `INSERT INTO sessions (token_hash, member_id, created_at, expires_at, last_seen_at)
     SELECT 'bench-' || id, id, signup_date, now() + interval '30 days', last_active_at
       FROM members WHERE deleted_at IS NULL`,
  )
  await client.query(
    `INSERT INTO member_privacy (member_id, hide_online)
     SELECT id, true FROM members WHERE deleted_at IS NULL AND id % 20 = 0`,
  )
  await client.query(
    `UPDATE members SET public_seen_at = member_public_seen(id, last_active_at),
       public_active_at = member_public_active(id, last_active_at, signup_date)`,
  )
  await client.query('ALTER TABLE sessions ENABLE TRIGGER sessions_public_seen')
  await client.query('ALTER TABLE member_privacy ENABLE TRIGGER privacy_public_seen')
  await client.query('ALTER TABLE member_privacy ENABLE TRIGGER privacy_public_active')
}

/**
 * Members lo..hi. Distribution: country by population, region uniform within
 * the country, half women, ages like the demo seed (70% 22-50, the rest 18-80),
 * signed up over the last year with activity skewed recent, 0.5% deleted.
 */
async function insertMembers(client: pg.Client, lo: number, hi: number): Promise<void> {
  const female = allFirstNames('female')
  const male = allFirstNames('male')
  const countries = await client.query<{ b: number }>(
    'SELECT array_agg(lower_bound ORDER BY idx) AS b FROM bench_country',
  )
  await client.query(
    `INSERT INTO members (id, email, password_hash, name, gender, date_of_birth, country,
       countryregion, city, personal, language, paid_user, fictional, signup_date, last_active_at,
       activated_at, deleted_at, main_image_id, last_signup_step)
     OVERRIDING SYSTEM VALUE
     SELECT s.g, 'bench' || s.g || '@example.test', $3,
       CASE WHEN s.female THEN ($4::text[])[1 + floor(s.r_name * $5)::int]
            ELSE ($6::text[])[1 + floor(s.r_name * $7)::int] END,
       CASE WHEN s.female THEN 'female' ELSE 'male' END,
       (current_date - make_interval(years => s.age))::date - floor(s.r_day * 365)::int,
       c.code, r.id, r.cities[1 + floor(s.r_city * cardinality(r.cities))::int],
       ($8::text[])[1 + floor(s.r_note * $9)::int],
       coalesce(r.language, c.language),
       s.r_paid < 0.12, s.r_fictional < 0.05,
       s.signup,
       now() - (now() - s.signup) * (s.r_idle ^ 3),
       s.signup + interval '10 minutes',
       CASE WHEN s.r_deleted < 0.005 THEN now() - (now() - s.signup) * s.r_idle END,
       s.g, 7
     FROM (
       SELECT g, width_bucket(random(), $10::float8[]) AS ci, random() AS r_region,
         random() < 0.5 AS female,
         CASE WHEN random() < 0.7 THEN 22 + floor(random() * 29)::int
              ELSE 18 + floor(random() * 63)::int END AS age,
         random() AS r_name, random() AS r_day, random() AS r_city, random() AS r_note,
         random() AS r_paid, random() AS r_fictional, random() AS r_idle, random() AS r_deleted,
         now() - random() * interval '365 days' AS signup
       FROM generate_series($1::bigint, $2::bigint) AS g
       OFFSET 0 -- a fence: each random() above is drawn once per row
     ) s
     JOIN bench_country c ON c.idx = s.ci
     JOIN bench_region r ON r.ci = s.ci AND r.no = 1 + floor(s.r_region * c.nregions)::int
     -- Rows land on the heap in id (sign-up) order, not grouped by the join's
     -- country buckets: a country's members are spread over the whole table,
     -- as in a real site, so heap reads are not flattered.
     ORDER BY s.g`,
    [
      lo,
      hi,
      NO_LOGIN,
      female,
      female.length,
      male,
      male.length,
      NOTE_SNIPPETS,
      NOTE_SNIPPETS.length,
      countries.rows[0]?.b,
    ],
  )
}

/** Random likes and short chats among ordinary members (not the star's). */
async function backgroundSocial(client: pg.Client, total: number): Promise<void> {
  await client.query(
    `INSERT INTO likes (liker_id, liked_id, created_at, is_new)
     SELECT a, b, now() - random() * interval '365 days', random() < 0.3
     FROM (SELECT 1 + floor(random() * $1)::bigint AS a, 1 + floor(random() * $1)::bigint AS b
           FROM generate_series(1, $2) OFFSET 0) x
     WHERE a <> b
     ORDER BY a, b -- in primary key order: appends to the btree instead of random inserts
     ON CONFLICT DO NOTHING`,
    [total, Math.round(total * BACKGROUND_LIKES_PER_MEMBER)],
  )
  await client.query(
    `INSERT INTO conversations (member_low, member_high, created_at, last_message_at)
     SELECT least(a, b), greatest(a, b), t - interval '1 hour', t
     FROM (SELECT 1 + floor(random() * $1)::bigint AS a, 1 + floor(random() * $1)::bigint AS b,
             now() - random() * interval '365 days' AS t
           FROM generate_series(1, $2) OFFSET 0) x
     WHERE a <> b
     ON CONFLICT DO NOTHING`,
    [total, Math.round(total * BACKGROUND_CONVERSATIONS_SHARE)],
  )
  await fillConversations(client, 'TRUE', MESSAGES_PER_BACKGROUND_CONVERSATION)
}

/**
 * Members and messages of the conversations matching `where` (SQL over
 * conversations c), `perConversation` messages each, the last at last_message_at.
 */
async function fillConversations(
  client: pg.Client,
  where: string,
  perConversation: number,
): Promise<void> {
  await client.query(
    `INSERT INTO conversation_members (conversation_id, member_id, unread_count)
     SELECT c.id, m.id, CASE WHEN random() < 0.2 THEN 1 + floor(random() * 3)::int ELSE 0 END
     FROM conversations c CROSS JOIN LATERAL (VALUES (c.member_low), (c.member_high)) AS m(id)
     WHERE ${where}`,
  )
  await client.query(
    `INSERT INTO messages (conversation_id, sender_id, body, created_at)
     SELECT c.id, CASE WHEN k % 2 = 0 THEN c.member_low ELSE c.member_high END,
       ($1::text[])[1 + floor(random() * cardinality($1::text[]))::int],
       c.last_message_at - (($2 - k) * interval '7 minutes')
     FROM conversations c CROSS JOIN generate_series(1, $2) AS k
     WHERE ${where}`,
    [NOTE_SNIPPETS, perConversation],
  )
  await client.query(newestMessageUpdate(where))
}

/** The two searching viewers and the star, added after the million. */
async function specialPeople(client: pg.Client, total: number): Promise<BenchPeople> {
  const person = async (email: string, gender: string, country: string, region: string) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO members (email, password_hash, name, gender, date_of_birth, country,
         countryregion, city, language, last_signup_step)
       VALUES ($1, $2, 'Bench', $3, (current_date - interval '35 years')::date, $4, $5, NULL, 'en', 7)
       RETURNING id`,
      [email, NO_LOGIN, gender, country, region],
    )
    return Number(rows[0]?.id)
  }
  const viewerNl = await person('bench-viewer-nl@example.test', 'male', 'NL', 'NL-NH')
  const viewerUs = await person('bench-viewer-us@example.test', 'female', 'US', 'US-CA')
  const star = await person('bench-star@example.test', 'female', 'NL', 'NL-UT')
  // Distinct random members: draw a few more than needed, keep the first 5,000.
  const draw = `SELECT DISTINCT 1 + floor(random() * ${total})::bigint AS id
                FROM generate_series(1, ${Math.round(STAR_LIKES * 1.2)})`
  await client.query(
    `INSERT INTO likes (liker_id, liked_id, created_at, is_new)
     SELECT $1, id, now() - random() * interval '365 days', false FROM (${draw} LIMIT $2) x`,
    [star, STAR_LIKES],
  )
  await client.query(
    `INSERT INTO likes (liker_id, liked_id, created_at, is_new)
     SELECT id, $1, now() - random() * interval '365 days', random() < 0.1 FROM (${draw} LIMIT $2) x`,
    [star, STAR_LIKES],
  )
  await client.query(
    `INSERT INTO conversations (member_low, member_high, created_at, last_message_at)
     SELECT least(id, $1), greatest(id, $1), t - interval '1 day', t
     FROM (SELECT id, now() - random() * interval '90 days' AS t FROM (${draw} LIMIT $2) x) y`,
    [star, STAR_CONVERSATIONS],
  )
  await fillConversations(client, `${star} IN (c.member_low, c.member_high)`, STAR_MESSAGES)
  return { viewerNl, viewerUs, star }
}

/**
 * A day of activity since the last vacuum, as production has between
 * autovacuum runs: `touched` random members get a new last_active_at. Their
 * table pages stop being all-visible, so index-only scans fetch those rows
 * from the table, and the touched members move to the front of the activity
 * order, where page 1 reads. Autovacuum of members is off until
 * restoreAutovacuum(), so it cannot tidy up halfway through the measurement.
 */
export async function simulateActivity(
  client: pg.Client,
  total: number,
  touched: number,
): Promise<void> {
  await client.query('ALTER TABLE members SET (autovacuum_enabled = false)')
  await client.query('VACUUM members')
  if (touched === 0) return
  await client.query(
    `UPDATE members SET last_active_at = now() - random() * interval '1 day'
     WHERE deleted_at IS NULL
       AND id IN (SELECT 1 + floor(random() * $1)::bigint FROM generate_series(1, $2))`,
    [total, touched],
  )
}

export async function restoreAutovacuum(client: pg.Client): Promise<void> {
  await client.query('ALTER TABLE members RESET (autovacuum_enabled)')
}
