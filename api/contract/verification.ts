// Photo verification (docs/operator-console.md, "Photo verification"): the
// member starts a request and is shown a pose, sends a selfie taking it,
// and a moderator approves (the member is verified) or refuses it with a
// statement of reasons.
import { z } from 'zod'
import { HEAD_TURNS, VERIFICATION_POSES, VERIFICATION_STATES } from './rules/verification.ts'

export { HEAD_TURNS, VERIFICATION_POSES, VERIFICATION_STATES }

/** GET /api/verification.php and the answer of the other verification calls. */
export const VerificationStatus = z.object({
  /** The member is verified (members.verified_at): the mark others see. */
  verified: z.boolean(),
  /** The latest request's state; `none` when there is none. */
  state: z.enum(VERIFICATION_STATES),
  /** The pose to take (started) or taken (pending); null otherwise. */
  pose: z.enum(VERIFICATION_POSES).nullable(),
  /** The head turn to take with the pose (started or pending); null otherwise. */
  turn: z.enum(HEAD_TURNS).nullable(),
  /**
   * The member consents to the machine comparing their face (GDPR Art. 9):
   * given with the latest request, or a face descriptor is kept.
   */
  face_consent: z.boolean(),
  /** A refusal's statement of reasons (the moderator's words); null otherwise. */
  reason: z.string().nullable(),
})
export type VerificationStatus = z.infer<typeof VerificationStatus>

/**
 * POST /api/verification.php: start (or go on with) a request. `face_consent`:
 * the member's explicit opt-in to the machine comparing their face with
 * their photos (absent: no).
 */
export const VerificationStartRequest = z.object({ face_consent: z.boolean().optional() }).strict()
