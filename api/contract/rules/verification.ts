// Photo verification's fixed list (api/contract/verification.ts), zod-free
// for the member's pages and the console.

/**
 * The poses a member is asked to take in the selfie, one picked at random per
 * request: a pose a photo found online is unlikely to show. Stored by index
 * (verifications.pose): append only, never reorder.
 */
export const VERIFICATION_POSES = [
  'hand_on_head',
  'thumb_up',
  'peace_sign',
  'hand_on_chin',
  'point_up',
] as const
export type VerificationPose = (typeof VERIFICATION_POSES)[number]

/**
 * The head turn asked with the pose, one picked at random per request, from
 * the member's own point of view: the machine's face match checks it
 * (api/verification/face-match.ts). Stored by index (verifications.turn):
 * append only, never reorder.
 */
export const HEAD_TURNS = ['left', 'right'] as const
export type HeadTurn = (typeof HEAD_TURNS)[number]

/** Where a member's verification stands: none asked, pose shown, selfie waiting, decided. */
export const VERIFICATION_STATES = ['none', 'started', 'pending', 'approved', 'refused'] as const
export type VerificationState = (typeof VERIFICATION_STATES)[number]
