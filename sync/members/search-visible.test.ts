import { describe, expect, it } from 'vitest'
import { searchVisible } from './view.ts'

const settings = (loggedOut: string, withSource: string) => ({
  logged_out_search: loggedOut,
  logged_out_search_trafficsource: withSource,
})

describe('search visibility on the index (spec §6)', () => {
  it.each([
    // loggedIn, logged_out_search, ..._trafficsource, traffic source present, visible
    [true, 'none', 'none', false, true],
    [false, 'none', 'none', false, false],
    [false, 'all', 'none', false, true],
    [false, 'none', 'all', false, false],
    [false, 'none', 'all', true, true],
    [false, 'none', 'none', true, false],
  ])('logged in %s, %s/%s, source %s → %s', (loggedIn, a, b, source, visible) => {
    expect(searchVisible(loggedIn, settings(a, b), source)).toBe(visible)
  })

  it('hides search from guests while the settings are unknown', () => {
    expect(searchVisible(false, undefined, true)).toBe(false)
  })
})
