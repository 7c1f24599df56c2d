// The optional profile select fields of sign-up step 4 and /profile (spec §3
// visible_profile_fields) and the interests list. Values are stable ids; the
// client shows them translated.
import { Gender } from '../contract/index.ts'

/** Allowed values per known select field (GET /api/profile_fields.php). */
export const PROFILE_FIELD_VALUES: Record<string, readonly string[]> = {
  relationship: ['single', 'divorced', 'widowed', 'separated', 'in_relationship', 'married'],
  height: ['under_150', '150_159', '160_169', '170_179', '180_189', '190_199', '200_plus'],
  smoking: ['no', 'occasionally', 'yes'],
  children: ['none', 'at_home', 'not_at_home', 'want_children'],
  education: ['primary', 'secondary', 'vocational', 'bachelor', 'master', 'doctorate'],
}

/** Gender plus the visible fields the site knows (an operator may list fewer). */
export function allowedValues(visibleFields: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = { gender: [...Gender.options] }
  for (const f of visibleFields) {
    const values = PROFILE_FIELD_VALUES[f]
    if (values) out[f] = [...values]
  }
  return out
}

/** GET /api/interests.php: a fixed list of ids. */
export const INTERESTS = [
  'travel',
  'music',
  'movies',
  'sports',
  'fitness',
  'cooking',
  'reading',
  'nature',
  'art',
  'dancing',
  'photography',
  'gaming',
  'pets',
  'fashion',
  'wine',
  'theatre',
] as const
