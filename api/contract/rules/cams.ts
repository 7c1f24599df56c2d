// Spec §6 webcam eligibility, applied by the API (which members get cams from
// /api/xcams/search.php) and by the app (whether the grid asks for them).

/** Spec §6: webcam tiles only for members signed up more than 4 days (345600000 ms) ago ... */
export const CAMS_MIN_MEMBERSHIP_MS = 345_600_000
/** ... who are not paid and whose site sells `cams` or `camads` (settings.member_resell). */
export const CAM_RESELL: readonly string[] = ['cams', 'camads']

export interface CamViewer {
  paidUser: boolean
  /** Sign-up time in ms since the epoch; NaN (unparseable) counts as new. */
  signupAt: number
}

/** Spec §6: not paid, member for more than 4 days, and the operator resells cams. */
export function camsEligible(
  viewer: CamViewer,
  memberResell: readonly string[],
  now: number,
): boolean {
  if (viewer.paidUser || Number.isNaN(viewer.signupAt)) return false
  if (now - viewer.signupAt <= CAMS_MIN_MEMBERSHIP_MS) return false
  return memberResell.some((r) => CAM_RESELL.includes(r))
}
