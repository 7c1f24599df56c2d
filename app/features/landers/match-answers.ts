// The match finder's answers (who, age, where), kept until the visitor has
// signed up: sign-up carries the country into the profile, and
// /signup-matches runs them as the new member's first search (a manual
// search, which the server saves as the member's search, spec §7).

export interface MatchAnswers {
  gender: 'male' | 'female'
  min_age: number
  max_age: number
  country: string
}

const KEY = 'amora.matchfinder'

export function saveMatchAnswers(a: MatchAnswers): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(a))
  } catch (e) {
    console.warn('match finder: answers not kept', e)
  }
}

/** The kept answers, read defensively (another version may have written them), or null. */
export function readMatchAnswers(): MatchAnswers | null {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null')
    if (typeof v !== 'object' || v === null) return null
    const o = v as Record<string, unknown>
    const gender = o.gender === 'male' || o.gender === 'female' ? o.gender : null
    const { min_age, max_age, country } = o
    if (!gender || typeof min_age !== 'number' || typeof max_age !== 'number') return null
    if (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country)) return null
    return { gender, min_age, max_age, country }
  } catch {
    return null
  }
}
