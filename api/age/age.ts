// Age assurance: the life of one check (started by the member, answered once
// by the wallet before it expires) and what is kept of it. Only the result,
// its time and the provider are kept (age_assurance), never the document or
// any attribute of it. A refused, replayed or late answer changes nothing.
import { randomBytes } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { ageAssurance, ageRequests } from '../../db/schema/index.ts'
import type { AgeAssuranceSetting, AgeStatus } from '../contract/index.ts'
import { ApiFailure } from '../http/errors.ts'
import { operatorSettings } from '../settings/index.ts'
import { type AgeProvider, type AgeRequestContext, PresentationRefused } from './provider.ts'

/** How long a request link holds: long enough to find the phone and open the app. */
export const AGE_REQUEST_TTL_MS = 10 * 60_000

export interface AgeDeps {
  providers: Record<string, AgeProvider>
}

const token = (bytes: number) => randomBytes(bytes).toString('base64url')

/** Whether the member has passed a check (any provider). */
export async function isAssured(db: Db, memberId: number): Promise<boolean> {
  const [row] = await db
    .select({ m: ageAssurance.memberId })
    .from(ageAssurance)
    .where(eq(ageAssurance.memberId, memberId))
  return row !== undefined
}

export async function ageStatus(
  db: Db,
  memberId: number,
  required: AgeAssuranceSetting,
): Promise<AgeStatus> {
  const [row] = await db.select().from(ageAssurance).where(eq(ageAssurance.memberId, memberId))
  return {
    required,
    assured: row !== undefined,
    assured_at: row?.assuredAt.toISOString() ?? null,
    provider: row?.provider ?? null,
  }
}

/** The response URI of a request: where the wallet posts (direct_post). */
export const responseUriOf = (base: string, requestId: string) =>
  `${base}/api/age_response.php?request=${requestId}`

/** The request URI of a request: where the wallet fetches the signed request object. */
export const requestUriOf = (base: string, requestId: string) =>
  `${base}/api/age_request_object.php?request=${requestId}`

const contextOf = (
  row: { id: string; nonce: string; expiresAt: Date },
  input: { base: string; siteName: string; now: Date },
): AgeRequestContext => ({
  requestId: row.id,
  nonce: row.nonce,
  responseUri: responseUriOf(input.base, row.id),
  requestUri: requestUriOf(input.base, row.id),
  siteName: input.siteName,
  now: input.now,
  expiresAt: row.expiresAt,
})

export async function startCheck(
  db: Db,
  deps: AgeDeps,
  input: { memberId: number; providerId: string; base: string; siteName: string; now: Date },
) {
  const provider = deps.providers[input.providerId]
  if (!provider?.available) throw new ApiFailure(409, 'age_provider_unavailable')
  const requestId = token(18)
  const nonce = token(24)
  const expiresAt = new Date(input.now.getTime() + AGE_REQUEST_TTL_MS)
  let link: string
  try {
    ;({ link } = await provider.startRequest(contextOf({ id: requestId, nonce, expiresAt }, input)))
  } catch (e) {
    // E.g. a plain-http site on a public host: wallets take https only.
    console.error('age: request could not be built', provider.id, (e as Error).message)
    throw new ApiFailure(409, 'age_provider_unavailable')
  }
  await db.insert(ageRequests).values({
    id: requestId,
    memberId: input.memberId,
    provider: provider.id,
    nonce,
    createdAt: input.now,
    expiresAt,
  })
  return {
    request: requestId,
    provider: provider.id,
    link,
    expires_at: expiresAt.toISOString(),
  }
}

/** The state of the member's own request, for the page that waits for it. */
export async function checkState(db: Db, memberId: number, requestId: string, now: Date) {
  const [row] = await db
    .select()
    .from(ageRequests)
    .where(and(eq(ageRequests.id, requestId), eq(ageRequests.memberId, memberId)))
  if (!row) throw new ApiFailure(404, 'not_found')
  if (row.state === 'pending' && row.expiresAt <= now) return { state: 'expired' as const }
  return { state: row.state as 'pending' | 'passed' | 'refused' }
}

/**
 * The signed request object of request `requestId`, for the wallet that
 * follows the link's request_uri. Only while the request is pending and
 * unexpired: 404 for an unknown request, 410 once it was answered or has
 * expired. It holds nothing secret (the nonce is bound to this request).
 */
export async function requestObjectOf(
  db: Db,
  deps: AgeDeps,
  input: { requestId: string; base: string; siteName: string; now: Date },
): Promise<string> {
  const [row] = await db.select().from(ageRequests).where(eq(ageRequests.id, input.requestId))
  if (!row) throw new ApiFailure(404, 'not_found')
  if (row.state !== 'pending') throw new ApiFailure(410, 'already_answered')
  if (row.expiresAt <= input.now) throw new ApiFailure(410, 'request_expired')
  const provider = deps.providers[row.provider]
  if (!provider?.requestObject) throw new ApiFailure(404, 'not_found')
  try {
    return await provider.requestObject(contextOf(row, input))
  } catch (e) {
    console.error('age: request object could not be signed', row.provider, (e as Error).message)
    throw new ApiFailure(409, 'age_provider_unavailable')
  }
}

/**
 * The wallet's answer to request `requestId`. 404 for an unknown request,
 * 410 once it has expired, 409 once it was answered (a replay), 422 for a
 * presentation that does not verify: none of these change anything. A
 * verified presentation closes the request (one answer per nonce, even
 * against a concurrent one) and, when it proves 18+, records the result.
 */
export async function answerCheck(
  db: Db,
  deps: AgeDeps,
  input: {
    requestId: string
    base: string
    siteName: string
    form: Record<string, string>
    now: Date
  },
): Promise<void> {
  const [row] = await db.select().from(ageRequests).where(eq(ageRequests.id, input.requestId))
  if (!row) throw new ApiFailure(404, 'not_found')
  if (row.state !== 'pending') throw new ApiFailure(409, 'already_answered')
  if (row.expiresAt <= input.now) throw new ApiFailure(410, 'request_expired')
  const provider = deps.providers[row.provider]
  if (!provider) throw new ApiFailure(409, 'age_provider_unavailable')
  if (input.form.error !== undefined) {
    // The holder declined in the wallet: the request is closed, nothing else changes.
    await close(db, row.id, 'refused', input.now)
    return
  }
  let over18: boolean
  try {
    ;({ over18 } = await provider.verifyResponse(contextOf(row, input), input.form))
  } catch (e) {
    if (e instanceof PresentationRefused) {
      console.warn('age: presentation refused', row.provider, e.message)
      throw new ApiFailure(422, 'presentation_refused')
    }
    throw e
  }
  await db.transaction(async (tx) => {
    const closed = await close(tx, row.id, over18 ? 'passed' : 'refused', input.now)
    if (!closed) throw new ApiFailure(409, 'already_answered')
    if (!over18) return
    await tx
      .insert(ageAssurance)
      .values({
        memberId: row.memberId,
        result: 'over_18',
        provider: row.provider,
        assuredAt: input.now,
      })
      .onConflictDoUpdate({
        target: ageAssurance.memberId,
        set: { provider: row.provider, assuredAt: input.now, result: 'over_18' },
      })
  })
}

/** Closes a pending request; false when another answer closed it first. */
async function close(db: Pick<Db, 'update'>, id: string, state: 'passed' | 'refused', now: Date) {
  const rows = await db
    .update(ageRequests)
    .set({ state, answeredAt: now })
    .where(and(eq(ageRequests.id, id), eq(ageRequests.state, 'pending')))
    .returning({ id: ageRequests.id })
  return rows.length > 0
}

/**
 * What a member does that may need a passed check: a like (a first approach),
 * a message, a credit purchase.
 */
export type AgeGatedAction = 'like' | 'message' | 'purchase'

/**
 * The one rule of when the site asks for age assurance (the operator
 * setting `age_assurance` of the request's site): `signup`, before any like,
 * message or purchase; `first_contact`, before the first message and before
 * a purchase. A member without a passed check gets 403
 * `age_assurance_required` (the app sends them to /age). Browsing (search,
 * profiles) stays open either way: a member sees the site before proving
 * their age, as at sign-up (docs/age-assurance.md).
 */
export async function requireAgeAssurance(
  db: Db,
  memberId: number,
  host: string | undefined,
  action: AgeGatedAction,
): Promise<void> {
  const { age_assurance: setting } = await operatorSettings(db, host)
  if (setting === 'off') return
  if (setting === 'first_contact' && action === 'like') return
  if (await isAssured(db, memberId)) return
  throw new ApiFailure(403, 'age_assurance_required', undefined, 'confirm your age first')
}

/**
 * The member's age checks for their data export (GDPR Art. 15/20): the kept
 * result, its time and the provider, and each request's provider, state and
 * times. The nonce stays out: a one-time value of no use to the member.
 */
export async function ageExport(db: Db, memberId: number) {
  const [kept] = await db.select().from(ageAssurance).where(eq(ageAssurance.memberId, memberId))
  const requests = await db
    .select()
    .from(ageRequests)
    .where(eq(ageRequests.memberId, memberId))
    .orderBy(asc(ageRequests.createdAt))
  return {
    result: kept
      ? { result: kept.result, assured_at: kept.assuredAt.toISOString(), provider: kept.provider }
      : null,
    requests: requests.map((r) => ({
      provider: r.provider,
      state: r.state,
      created_at: r.createdAt.toISOString(),
      expires_at: r.expiresAt.toISOString(),
      answered_at: r.answeredAt?.toISOString() ?? null,
    })),
  }
}
