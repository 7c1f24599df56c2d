import { z } from 'zod'

/** The operator setting (per site): when a member must prove to be 18 or older. */
export const AgeAssuranceSetting = z.enum(['off', 'signup', 'first_contact'])
export type AgeAssuranceSetting = z.infer<typeof AgeAssuranceSetting>

/** The providers a member can prove their age with (api/age/). */
export const AgeProviderId = z.enum(['eu-av'])

/** GET /api/age_assurance.php: what the site asks of this member, and whether they have done it. */
export const AgeStatus = z.object({
  required: AgeAssuranceSetting,
  assured: z.boolean(),
  assured_at: z.string().nullable(),
  provider: z.string().nullable(),
})
export type AgeStatus = z.infer<typeof AgeStatus>

/** POST /api/age_assurance.php: start a check with a provider. */
export const AgeStartRequest = z.object({ provider: AgeProviderId.default('eu-av') })

/** A started check: the link for the wallet (QR code or same-device link) and until when it holds. */
export const AgeStartResponse = z.object({
  request: z.string(),
  provider: z.string(),
  link: z.string(),
  expires_at: z.string(),
  /**
   * The built-in test wallet's page for this request (a path of this site),
   * only when the test wallet is on (a demo start or AGE_TEST_WALLET=on); else null.
   */
  test_wallet: z.string().nullable(),
})
export type AgeStartResponse = z.infer<typeof AgeStartResponse>

export const AgeRequestQuery = z.object({ request: z.string().min(1).max(64) })

/** GET /api/age_request.php?request=: the state of one check, polled by the page. */
export const AgeRequestState = z.object({
  state: z.enum(['pending', 'passed', 'refused', 'expired']),
})
export type AgeRequestState = z.infer<typeof AgeRequestState>

/**
 * The wallet's answer (OpenID4VP response mode direct_post), form-encoded:
 * a vp_token, or an error when the holder declined.
 */
export const AgeWalletForm = z.object({
  vp_token: z.string().max(60_000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
})

/** GET /api/age_test_wallet.php: the test wallet's page for one request, and where to go back to. */
export const AgeTestWalletQuery = z.object({
  request: z.string().min(1).max(64),
  next: z.string().max(2000).optional(),
})

/** The test wallet's buttons: present a proof of age over 18, or decline. */
export const AgeTestWalletForm = z.object({
  request: z.string().min(1).max(64),
  next: z.string().max(2000).optional(),
  action: z.enum(['present', 'decline']),
})
