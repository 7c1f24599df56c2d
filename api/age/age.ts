// Age assurance: the life of one check (started by the member, answered once
// by the wallet before it expires) and what is kept of it. Only the result,
// its time and the provider are kept (age_assurance), never the document or
// any attribute of it. A refused, replayed or late answer changes nothing,
// nor does an error answer without the request's state.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { ageAssurance, ageRequests } from '../../db/schema/index.ts'
import type { AgeAssuranceSetting, AgeStatus } from '../contract/index.ts'
import { ApiFailure } from '../http/errors.ts'
import { cachedOperatorSettings } from '../settings/index.ts'
import { type AgeProvider, type AgeRequestContext, PresentationRefused } from './provider.ts'
import type { TestIssuer } from './testing/wallet.ts'

/** How long a request link holds: long enough to find the phone and open the app. */
export const AGE_REQUEST_TTL_MS = 10 * 60_000

/** The built-in test issuer and wallet (api/age/test-wallet.ts). */
export interface TestWallet {
  /** The test issuer of this process, made on first use. */
  issuer(): Promise<TestIssuer>
  /** Its root certificate (DER): the trust anchor it adds. */
  anchors(): Promise<Uint8Array[]>
}

export interface AgeDeps {
  providers: Record<string, AgeProvider>
  /** The built-in test issuer and wallet, only when on (api/age/config.ts ageTestWalletOn). */
  testWallet?: TestWallet
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

/** The test wallet's page for a request (api/age/test-wallet.ts): a path of this site. */
export const testWalletPathOf = (requestId: string) =>
  `/api/age_test_wallet.php?request=${requestId}`

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
    test_wallet: deps.testWallet ? testWalletPathOf(requestId) : null,
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
 * Stores `state` as the request's OpenID4VP state if nobody has fetched the
 * request object yet; false when another fetch was first (one conditional
 * update, so two fetches at once cannot both hand it out).
 */
async function claimState(db: Db, requestId: string, state: string): Promise<boolean> {
  const claimed = await db
    .update(ageRequests)
    .set({ walletState: state })
    .where(and(eq(ageRequests.id, requestId), isNull(ageRequests.walletState)))
    .returning({ id: ageRequests.id })
  return claimed.length > 0
}

/**
 * The signed request object of request `requestId`, for the wallet that
 * follows the link's request_uri. Only while the request is pending and
 * unexpired: 404 for an unknown request, 410 once it was answered or has
 * expired. The nonce in it is no secret (a presentation must be signed over
 * it by the holder's device). The first GET, and only that one, also gets
 * the request's `state`, made then: what the wallet must return with an
 * error answer, so a request id seen elsewhere (the QR code, a log of the
 * response URI) cannot end the request. A HEAD gets no body, so it makes
 * none (`claim` false). The state is kept only once its request object is
 * signed, so a failed signing hands out nothing and changes nothing.
 */
export async function requestObjectOf(
  db: Db,
  deps: AgeDeps,
  input: { requestId: string; base: string; siteName: string; now: Date; claim: boolean },
): Promise<string> {
  const [row] = await db.select().from(ageRequests).where(eq(ageRequests.id, input.requestId))
  if (!row) throw new ApiFailure(404, 'not_found')
  if (row.state !== 'pending') throw new ApiFailure(410, 'already_answered')
  if (row.expiresAt <= input.now) throw new ApiFailure(410, 'request_expired')
  const provider = deps.providers[row.provider]
  const signer = provider?.requestObject?.bind(provider)
  if (!signer) throw new ApiFailure(404, 'not_found')
  const sign = async (state: string | undefined) => {
    try {
      return await signer({ ...contextOf(row, input), state })
    } catch (e) {
      console.error('age: request object could not be signed', row.provider, (e as Error).message)
      throw new ApiFailure(409, 'age_provider_unavailable')
    }
  }
  if (!input.claim || row.walletState !== null) return sign(undefined)
  const state = token(24)
  const signed = await sign(state)
  // Another fetch at the same moment took it first: this one goes without.
  return (await claimState(db, row.id, state)) ? signed : sign(undefined)
}

/** Whether `given` is the request's state; constant time (digests of equal length). */
function isStateOf(row: { walletState: string | null }, given: string | undefined): boolean {
  if (row.walletState === null || given === undefined) return false
  const digest = (v: string) => createHash('sha256').update(v).digest()
  return timingSafeEqual(digest(given), digest(row.walletState))
}

/**
 * The wallet's answer to request `requestId`. 404 for an unknown request,
 * 410 once it has expired, 409 once it was answered (a replay), 422 for a
 * presentation that does not verify, 400 naming `state` for an error answer
 * without the request's state: none of these change anything. A verified
 * presentation closes the request (one answer per nonce, even against a
 * concurrent one) and, when it proves 18+, records the result; so does an
 * error answer with the state (refused).
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
    // An error answer carries no signature: only the state, which only the
    // wallet that fetched the request object first got, shows it is the
    // wallet's (OpenID4VP 1.0 §14.4.2, "Protection of the Response URI").
    // Without it anyone who saw the request id could end the member's
    // check; it is not processed (no 200).
    if (!isStateOf(row, input.form.state)) {
      console.warn('age: error answer without the request state ignored', row.provider)
      throw new ApiFailure(400, 'invalid_input', 'state')
    }
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
  if (!(await ageGateOn(db, host, action))) return
  if (await isAssured(db, memberId)) return
  throw ageAssuranceRequired()
}

/** Whether the site at `host` asks for age assurance before `action` (settings from the process's cache). */
export async function ageGateOn(
  db: Db,
  host: string | undefined,
  action: AgeGatedAction,
): Promise<boolean> {
  const { age_assurance: setting } = await cachedOperatorSettings(db, host)
  if (setting === 'off') return false
  return !(setting === 'first_contact' && action === 'like')
}

/** The refusal of an action that needs an age check first. */
export const ageAssuranceRequired = () =>
  new ApiFailure(403, 'age_assurance_required', undefined, 'confirm your age first')

/** isAssured as SQL, for a caller's single statement (the paid send): true when `member` passed a check. */
export const assuredSql = (member: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM age_assurance aa WHERE aa.member_id = ${member})`

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
