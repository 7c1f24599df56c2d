// The chat's "New" divider (docs/live.md, "The open chat"): above the first
// of the other member's unread messages as the chat opened, told only once
// the rows hold what the opening's pull brought.
import { describe, expect, it } from 'vitest'
import type { MessageRow } from '../../../../data/useMessages.ts'
import { dividerKey } from './useMessageScroll.ts'

const ME = 1
const OTHER = 2
const row = (id: number, from: number, text: string): MessageRow => ({
  key: `m${id}`,
  id,
  conversation: 7,
  from,
  text,
  sentAt: '2026-11-30T16:54:00Z',
  status: 'sent',
  order: id,
})

const before = [
  row(1, OTHER, 'Held by the limit'),
  row(2, OTHER, 'Are you there?'),
  row(3, ME, 'line 0'),
]
const pulled = [...before, row(4, OTHER, 'Unread one'), row(5, OTHER, 'Unread two')]

describe('the "New" divider', () => {
  it("goes above the first of the other member's unread messages once the rows hold the pull's newest", () => {
    expect(dividerKey(pulled, ME, 2, 5)).toBe('m4')
  })

  it('is not told from rows that lack the newest message the pull stored (they came later, it sat too high)', () => {
    // Told from these rows it would be m1, "Held by the limit", read long ago.
    expect(dividerKey(before, ME, 2, 5)).toBeUndefined()
  })

  it('is not told before the opening pull answered', () => {
    expect(dividerKey(pulled, ME, 2, undefined)).toBeUndefined()
  })

  it('is none when nothing was unread, and none in a chat without messages', () => {
    expect(dividerKey(pulled, ME, 0, 5)).toBeNull()
    expect(dividerKey([], ME, 0, 0)).toBeNull()
  })

  it("counts only the other member's messages that reached the server", () => {
    const mine = { ...row(6, ME, 'pending'), id: null, status: 'pending' as const, order: 1e15 }
    expect(dividerKey([...pulled, mine], ME, 1, 5)).toBe('m5')
  })
})
