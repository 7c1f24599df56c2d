// The zod-free spec rules both ends apply (api/contract/rules/), pinned to the
// spec's literal values. (Beside the contract: the contract folder imports zod only.)
// Also the per-member action limits, our own numbers, pinned the same way.
import { describe, expect, it } from 'vitest'
import { badgeCount } from './contract/rules/badge.ts'
import { CAMS_MIN_MEMBERSHIP_MS, camsEligible } from './contract/rules/cams.ts'
import { SEARCH_PAGE_SIZE, TOKEN_MAX } from './contract/rules/limits.ts'
import { countryOptions, searchVisible } from './contract/rules/search.ts'
import { signupsOpen } from './contract/rules/signups.ts'
import { DEFAULT_TEMPLATE, isTemplate, TEMPLATES } from './contract/rules/templates.ts'
import { VISIBLE_HOLD_MS, VISIBLE_PING_MS } from './contract/rules/visibility.ts'
import { bucketsOf, NEW_ACCOUNT_MS } from './http/member-limits.ts'
import { LIMITS } from './http/ratelimit.ts'

const DAY = 86_400_000

describe('spec rules (contract rules/)', () => {
  it('pins the spec constants', () => {
    expect(CAMS_MIN_MEMBERSHIP_MS).toBe(345_600_000) // spec §6: 4 days
    expect(SEARCH_PAGE_SIZE).toBe(12) // spec §9
    expect(TOKEN_MAX).toBe(128)
  })

  it('knows the three designs, classic the default (spec §1/§9)', () => {
    expect(TEMPLATES).toEqual(['classic', 'boxy', 'lavish'])
    expect(DEFAULT_TEMPLATE).toBe('classic')
    for (const t of TEMPLATES) expect(isTemplate(t)).toBe(true)
    for (const t of ['', 'Classic', 'modern', undefined, null, 1]) expect(isTemplate(t)).toBe(false)
  })

  it('holds a visible report until a repeat has had a minute to arrive', () => {
    expect(VISIBLE_PING_MS).toBe(180_000)
    expect(VISIBLE_HOLD_MS).toBe(240_000)
    expect(VISIBLE_HOLD_MS - VISIBLE_PING_MS).toBeGreaterThanOrEqual(60_000)
  })

  it.each([
    ['unpaid, 4 days and 1 ms, cams resold', false, 4 * DAY + 1, ['cams'], true],
    ['unpaid, exactly 4 days', false, 4 * DAY, ['cams'], false],
    ['camads counts as reselling', false, 5 * DAY, ['camads'], true],
    ['paid members never see cams', true, 30 * DAY, ['cams'], false],
    ['no cam reselling', false, 30 * DAY, ['dating'], false],
  ] as const)('webcam eligibility (spec §6): %s', (_, paidUser, age, resell, expected) => {
    const now = Date.UTC(2026, 0, 10)
    expect(camsEligible({ paidUser, signupAt: now - age }, resell, now)).toBe(expected)
  })

  it('an unparseable sign-up date counts as new (no cams)', () => {
    expect(camsEligible({ paidUser: false, signupAt: Number.NaN }, ['cams'], Date.now())).toBe(
      false,
    )
  })

  it.each([
    [true, 'none', 'none', false, true],
    [false, 'none', 'none', true, false],
    [false, 'all', 'none', false, true],
    [false, 'none', 'all', false, false],
    [false, 'none', 'all', true, true],
  ] as const)(
    'search visibility (spec §6): logged in %s, logged_out_search %s, with source %s/%s',
    (loggedIn, open, bySource, hasSource, expected) => {
      const settings = { logged_out_search: open, logged_out_search_trafficsource: bySource }
      expect(searchVisible(loggedIn, settings, hasSource)).toBe(expected)
    },
  )

  it.each([
    ['all', null, true],
    ['with_trafficsource', 'aff1', true],
    ['with_trafficsource', '  ', false],
    ['with_trafficsource', null, false],
    ['none', 'aff1', false],
  ] as const)('sign-ups open (spec §5): %s with network %s', (signups, network, expected) => {
    expect(signupsOpen(signups, network)).toBe(expected)
  })

  it('country options are the own country plus its paired neighbour (spec §6)', () => {
    expect(countryOptions('NL')).toEqual(['NL', 'BE'])
    expect(countryOptions('AU')).toEqual(['AU', 'NZ'])
    expect(countryOptions('US')).toEqual(['US', 'CA'])
    expect(countryOptions('GB')).toEqual(['GB', 'IE'])
    expect(countryOptions('DE')).toEqual(['DE', 'AT'])
    expect(countryOptions('PL')).toEqual(['PL'])
  })

  it.each([
    ['AU', 'NZ'],
    ['NZ', 'AU'],
    ['NL', 'BE'],
    ['BE', 'NL'],
    ['US', 'CA'],
    ['CA', 'US'],
    ['GB', 'IE'],
    ['IE', 'GB'],
    ['DE', 'AT'],
    ['AT', 'DE'],
  ] as const)(
    'country neighbours are paired both ways (spec §6): %s offers %s',
    (own, neighbour) => {
      expect(countryOptions(own)).toEqual([own, neighbour])
    },
  )
})

describe('per-member action limits (api/http/ratelimit.ts LIMITS, not in the spec)', () => {
  it('pins the message and like limits, tighter for an account younger than a day', () => {
    const perWindow = (b: keyof typeof LIMITS) => [LIMITS[b].limit, LIMITS[b].windowMs]
    expect(NEW_ACCOUNT_MS).toBe(86_400_000) // a day
    expect(perWindow('message')).toEqual([20, 60_000])
    expect(perWindow('message_hour')).toEqual([300, 3_600_000])
    expect(perWindow('message_new')).toEqual([10, 60_000])
    expect(perWindow('message_new_hour')).toEqual([100, 3_600_000])
    expect(perWindow('like')).toEqual([60, 60_000])
    expect(perWindow('like_hour')).toEqual([600, 3_600_000])
    expect(perWindow('like_new')).toEqual([30, 60_000])
    expect(perWindow('like_new_hour')).toEqual([200, 3_600_000])
  })

  it('counts a member in the new-account buckets for their first day only', () => {
    const now = Date.UTC(2026, 0, 10)
    expect(bucketsOf('message', new Date(now - DAY + 1), now)).toEqual([
      'message_new',
      'message_new_hour',
    ])
    expect(bucketsOf('message', new Date(now - DAY), now)).toEqual(['message', 'message_hour'])
    expect(bucketsOf('like', new Date(now - DAY + 1), now)).toEqual(['like_new', 'like_new_hour'])
    expect(bucketsOf('like', new Date(now - DAY), now)).toEqual(['like', 'like_hour'])
  })
})

describe('install badge (spec §4)', () => {
  it('counts unread messages plus new likes, both of them', () => {
    expect(badgeCount(3, 2)).toBe(5)
    expect(badgeCount(0, 4), 'new likes alone').toBe(4)
    expect(badgeCount(7, 0), 'unread messages alone').toBe(7)
  })

  it('counts new visits to the profile beside new likes', () => {
    expect(badgeCount(1, 2, 3)).toBe(6)
    expect(badgeCount(0, 0, 2), 'new visits alone').toBe(2)
    expect(badgeCount(0, 0, -1)).toBe(0)
  })

  it('counts a negative count (a stale decrement) as none', () => {
    expect(badgeCount(-2, 1)).toBe(1)
    expect(badgeCount(2, -1)).toBe(2)
  })
})
