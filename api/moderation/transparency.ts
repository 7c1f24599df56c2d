// Statements of reasons to the EU's DSA Transparency Database (Art. 24(5)).
// Every sanction (it carries a statement of reasons: api/moderation/sanctions.ts)
// gets a `transparency_submissions` row and a job, in the transaction of the
// sanction, when TRANSPARENCY_DB_TOKEN is set; unset, nothing is queued. The
// job POSTs the statement to `${TRANSPARENCY_DB_URL}/api/v1/statement` with the
// token as a bearer token; a failure is retried by the job queue with its
// exponential backoff (2 s doubling, at most 1 h apart) up to
// TRANSPARENCY_ATTEMPTS, and the row keeps each attempt's error for the
// console. The platform unique id (`puid`) is the sanction's, so a retry after
// a lost answer, which the database refuses as a puid it already holds, counts
// as submitted.
//
// The statement holds no personal data (the database publishes it): the
// moderator's own words go to the member only; the database gets the rule,
// the restriction and fixed texts. Field names and values follow the
// database's API documentation (transparency.dsa.ec.europa.eu, "API
// documentation"); the test stand-in (api/test/transparency-fake.ts) checks
// the fields this code sends.
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { sanctions, transparencySubmissions } from '../../db/schema/index.ts'
import type { JobRow } from '../jobs/queue.ts'
import { enqueue } from '../jobs/queue.ts'

export const TRANSPARENCY_SUBMIT = 'moderation.transparency'
/** Attempts before a submission is `failed` (the last ones an hour apart: about half a day). */
export const TRANSPARENCY_ATTEMPTS = 20
/** The database's own address; TRANSPARENCY_DB_URL overrides it (its sandbox, a test stand-in). */
export const TRANSPARENCY_DEFAULT_URL = 'https://transparency.dsa.ec.europa.eu'

export interface TransparencyConfig {
  url: string
  token: string
}

/** The database's address and token, or null (off) when TRANSPARENCY_DB_TOKEN is unset. */
export function transparencyFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): TransparencyConfig | null {
  const token = env.TRANSPARENCY_DB_TOKEN?.trim()
  if (!token) return null
  const url = (env.TRANSPARENCY_DB_URL?.trim() || TRANSPARENCY_DEFAULT_URL).replace(/\/+$/, '')
  return { url, token }
}

/** Queues the statement of a new sanction (call in the sanction's transaction); nothing when off. */
export async function queueTransparency(tx: Db, sanctionId: number): Promise<void> {
  if (!transparencyFromEnv()) return
  await tx.insert(transparencySubmissions).values({ sanctionId }).onConflictDoNothing()
  await enqueue(tx, {
    kind: TRANSPARENCY_SUBMIT,
    payload: { sanction: sanctionId },
    key: `${TRANSPARENCY_SUBMIT}:${sanctionId}`,
    maxAttempts: TRANSPARENCY_ATTEMPTS,
  })
}

type Sanction = typeof sanctions.$inferSelect

/** The categories of the database for the site's rules (MODERATION_RULES). */
const CATEGORY: Record<string, string> = {
  harassment: 'STATEMENT_CATEGORY_ILLEGAL_OR_HARMFUL_SPEECH',
  spam_scam: 'STATEMENT_CATEGORY_SCAMS_AND_FRAUD',
  fake_profile: 'STATEMENT_CATEGORY_SCAMS_AND_FRAUD',
  explicit_content: 'STATEMENT_CATEGORY_PORNOGRAPHY_OR_SEXUALIZED_CONTENT',
  underage: 'STATEMENT_CATEGORY_PROTECTION_OF_MINORS',
  other: 'STATEMENT_CATEGORY_SCOPE_OF_PLATFORM_SERVICE',
}

/** The terms' rule in words the database publishes (no personal data). */
const RULE_TEXT: Record<string, string> = {
  harassment: 'Terms of service: harassment of other members',
  spam_scam: 'Terms of service: spam and scams',
  fake_profile: 'Terms of service: fake or impersonating profiles',
  explicit_content: 'Terms of service: explicit content',
  underage: 'Terms of service: members must be 18 or older',
  other: 'Terms of service: other breach',
}

/** The member states of the EEA: the site's service and its restrictions apply in all of them. */
export const EEA = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IS',
  'IT',
  'LI',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'NO',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
]

const day = (d: Date) => d.toISOString().slice(0, 10)

/** The statement of reasons of a sanction, as the database's POST /api/v1/statement takes it. */
export function statementBody(s: Sanction): Record<string, unknown> {
  const rule = RULE_TEXT[s.rule] ?? RULE_TEXT.other
  const contentType =
    s.kind === 'remove_photo'
      ? 'CONTENT_TYPE_IMAGE'
      : s.kind === 'remove_text'
        ? 'CONTENT_TYPE_TEXT'
        : 'CONTENT_TYPE_OTHER'
  const body: Record<string, unknown> = {
    decision_ground: 'DECISION_GROUND_INCOMPATIBLE_CONTENT',
    incompatible_content_ground: rule,
    incompatible_content_explanation: `A moderator found the ${s.kind === 'remove_photo' ? 'photo' : s.kind === 'remove_text' ? 'profile text' : 'account'} in breach of the site's terms (${s.rule}).`,
    incompatible_content_illegal: 'No',
    category: CATEGORY[s.rule] ?? CATEGORY.other,
    content_type: [contentType],
    content_date: day(s.startsAt),
    application_date: day(s.startsAt),
    decision_facts: `${rule}. Restriction: ${s.kind}. Decided by a moderator of the site.`,
    source_type: s.itemType === 'photo' ? 'SOURCE_VOLUNTARY' : 'SOURCE_ARTICLE_16',
    automated_detection: 'No',
    automated_decision: 'AUTOMATED_DECISION_NOT_AUTOMATED',
    account_type: 'ACCOUNT_TYPE_PRIVATE',
    territorial_scope: EEA,
    puid: `sanction-${s.id}`,
  }
  if (contentType === 'CONTENT_TYPE_OTHER') body.content_type_other = 'Member account'
  switch (s.kind) {
    case 'suspend':
      body.decision_account = 'DECISION_ACCOUNT_SUSPENDED'
      if (s.endsAt) body.end_date_account_restriction = day(s.endsAt)
      break
    case 'ban':
      body.decision_account = 'DECISION_ACCOUNT_TERMINATED'
      break
    case 'remove_photo':
    case 'remove_text':
      body.decision_visibility = ['DECISION_VISIBILITY_CONTENT_REMOVED']
      break
    default:
      // A warning restricts nothing visible: "other", in words.
      body.decision_visibility = ['DECISION_VISIBILITY_OTHER']
      body.decision_visibility_other = 'Formal warning to the account holder'
  }
  return body
}

/** The job's handler: one POST per attempt; the queue retries a throw with backoff. */
export const transparencyJobs = (db: Db, config: () => TransparencyConfig | null) => ({
  [TRANSPARENCY_SUBMIT]: async (payload: unknown, job: JobRow) => {
    const id = (payload as { sanction?: unknown }).sanction
    if (typeof id !== 'number') throw new Error(`${TRANSPARENCY_SUBMIT} without sanction`)
    const cfg = config()
    if (!cfg) return // switched off since: nothing is sent
    const [row] = await db
      .select({ sub: transparencySubmissions, sanction: sanctions })
      .from(transparencySubmissions)
      .innerJoin(sanctions, eq(sanctions.id, transparencySubmissions.sanctionId))
      .where(eq(transparencySubmissions.sanctionId, id))
    if (!row || row.sub.status === 'submitted') return
    let error: string
    try {
      const res = await fetch(`${cfg.url}/api/v1/statement`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${cfg.token}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify(statementBody(row.sanction)),
        signal: AbortSignal.timeout(30_000),
      })
      const text = await res.text()
      // A puid the database already holds: an earlier attempt got through.
      const known = res.status === 422 && /puid/i.test(text) && /unique/i.test(text)
      if (res.ok || known) {
        const uuid = res.ok ? remoteIdOf(text) : null
        await db
          .update(transparencySubmissions)
          .set({
            status: 'submitted',
            attempts: sql`${transparencySubmissions.attempts} + 1`,
            lastError: null,
            ...(uuid ? { remoteId: uuid } : {}),
            submittedAt: new Date(),
          })
          .where(eq(transparencySubmissions.id, row.sub.id))
        return
      }
      error = `HTTP ${res.status}: ${text.slice(0, 500)}`
    } catch (e) {
      error = e instanceof Error ? e.message : String(e)
    }
    await db
      .update(transparencySubmissions)
      .set({
        status: job.attempts >= job.maxAttempts ? 'failed' : 'queued',
        attempts: sql`${transparencySubmissions.attempts} + 1`,
        lastError: error,
      })
      .where(eq(transparencySubmissions.id, row.sub.id))
    throw new Error(`transparency database: ${error}`)
  },
})

const remoteIdOf = (text: string): string | null => {
  try {
    const uuid = (JSON.parse(text) as { uuid?: unknown }).uuid
    return typeof uuid === 'string' ? uuid.slice(0, 100) : null
  } catch {
    return null
  }
}

/** The console's list: the newest submissions with their state. */
export async function transparencySubmissionsList(db: Db, limit = 100) {
  const rows = await db
    .select({ sub: transparencySubmissions, kind: sanctions.kind, rule: sanctions.rule })
    .from(transparencySubmissions)
    .innerJoin(sanctions, eq(sanctions.id, transparencySubmissions.sanctionId))
    .orderBy(sql`${transparencySubmissions.id} DESC`)
    .limit(limit)
  return {
    enabled: transparencyFromEnv() !== null,
    submissions: rows.map((r) => ({
      id: r.sub.id,
      sanction: r.sub.sanctionId,
      kind: r.kind,
      rule: r.rule,
      status: r.sub.status as 'queued' | 'submitted' | 'failed',
      attempts: r.sub.attempts,
      last_error: r.sub.lastError,
      remote_id: r.sub.remoteId,
      submitted_at: r.sub.submittedAt?.toISOString() ?? null,
      created_at: r.sub.createdAt.toISOString(),
    })),
  }
}
