// Which texts of a profile edit wait for review (docs/law.md, "Profile texts
// held for review"): the name, the profile text and the notes run through
// the scam signals of first messages (messageSignals, the one rule).

import type { members } from '../../db/schema/index.ts'
import { messageSignals } from '../contract/rules/scam.ts'
import type { HeldTextField, HeldTexts } from '../moderation/index.ts'

type MemberChanges = Partial<typeof members.$inferInsert>

export interface TextReview {
  held: HeldTexts
  signals: string[]
  /** Text fields that go live as sent. */
  published: HeldTextField[]
}

/**
 * Takes the texts that fire a signal out of `changes` (they are not
 * published) and says which were held and which go live.
 */
export function holdFlaggedTexts(changes: MemberChanges): TextReview {
  const review: TextReview = { held: {}, signals: [], published: [] }
  const found = new Set<string>()
  const check = (field: HeldTextField, text: string): boolean => {
    const signals = messageSignals(text)
    for (const s of signals) found.add(s)
    if (signals.length === 0) review.published.push(field)
    return signals.length > 0
  }
  if (changes.name !== undefined && check('name', changes.name)) {
    review.held.name = changes.name
    delete changes.name
  }
  if (changes.personal !== undefined && check('personal', changes.personal ?? '')) {
    review.held.personal = changes.personal
    delete changes.personal
  }
  if (changes.notes && check('notes', Object.values(changes.notes).join('\n'))) {
    review.held.notes = changes.notes as Record<string, string>
    delete changes.notes
  }
  review.signals = [...found]
  return review
}
