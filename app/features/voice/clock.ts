/** A recording's length or place as minutes and seconds, "0:07", "1:00" (rounded down). */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}
