// Who a niche's site shows (docs/sites-and-templates.md "What each niche
// shows"): the default gender of search, the guest home's showcase and the
// landers' members. The member's own explicit or saved search still wins.

export type NicheGender = 'female' | 'male'

/**
 * The gender a niche's pages show a viewer by default. `viewer` is the
 * member's gender, or null for a guest.
 * - 2 (women who love women): women, to everyone.
 * - 7 (men meeting men): men, to everyone.
 * - 4, 5, 6 (curvy, mature, milf: sites about women): women, except a woman
 *   member, who is shown men (the people who adore them).
 * - 1 (general) and 3 (BDSM, mixed): the other gender; a guest sees women.
 */
export function nicheGender(niche: number, viewer: string | null): NicheGender {
  if (niche === 2) return 'female'
  if (niche === 7) return 'male'
  return viewer === 'female' ? 'male' : 'female'
}
