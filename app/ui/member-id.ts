/** A member id in a path: a positive integer, else null (spec §8 "Page Not Found"). */
export const parseMemberId = (raw: string): number | null => {
  const id = Number(raw)
  return /^[1-9][0-9]{0,15}$/.test(raw) && Number.isSafeInteger(id) ? id : null
}
