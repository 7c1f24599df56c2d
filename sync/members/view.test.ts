import { describe, expect, it } from 'vitest'
import { SEARCH_PAGE_SIZE } from '../../api/contract/rules/limits.ts'
import {
  CAM_AFTER_INDEXES,
  camsKey,
  fictionalIconOf,
  mayShowCams,
  memberResellOf,
  visibleListOf,
  withCamTiles,
} from './view.ts'

/** Spec §6: cams only for members signed up more than 4 days (345600000 ms) ago. */
const FOUR_DAYS_MS = 345_600_000

describe('mayShowCams (spec §6)', () => {
  const now = Date.parse('2025-01-10T00:00:00.000Z')
  const signedUp = (msAgo: number) => new Date(now - msAgo).toISOString()
  const member = (paid: boolean, msAgo: number) => ({
    paid_user: paid,
    signup_date: signedUp(msAgo),
  })

  it.each<[string, Parameters<typeof mayShowCams>[0], string[] | undefined, boolean]>([
    ['unpaid, 30 days, cams', member(false, 30 * 86_400_000), ['cams'], true],
    ['unpaid, 30 days, camads', member(false, 30 * 86_400_000), ['camads', 'x'], true],
    ['paid', member(true, 30 * 86_400_000), ['cams'], false],
    ['signed up exactly 4 days ago', member(false, FOUR_DAYS_MS), ['cams'], false],
    ['4 days and 1 ms ago', member(false, FOUR_DAYS_MS + 1), ['cams'], true],
    ['no cams resell', member(false, 30 * 86_400_000), ['other'], false],
    ['settings not known yet', member(false, 30 * 86_400_000), undefined, false],
    ['guest', null, ['cams'], false],
    ['unreadable signup date', { paid_user: false, signup_date: 'soon' }, ['cams'], false],
  ])('%s → %s', (_, user, resell, shown) => {
    expect(mayShowCams(user, resell, now)).toBe(shown)
  })
})

describe('withCamTiles (spec §2: after profile index 1 and 5 of every 12)', () => {
  const profiles = Array.from({ length: 12 }, (_, i) => `p${i}`)
  const layout = (items: ReturnType<typeof withCamTiles<string, string>>) =>
    items.map((i) => (i.kind === 'cam' ? `[${i.item}]` : i.item))

  it('puts cams after tiles 2 and 6 of a full page', () => {
    expect(layout(withCamTiles(profiles, ['c1', 'c2', 'c3']))).toEqual([
      'p0',
      'p1',
      '[c1]',
      'p2',
      'p3',
      'p4',
      'p5',
      '[c2]',
      'p6',
      'p7',
      'p8',
      'p9',
      'p10',
      'p11',
    ])
  })

  it('moves on through the cams page by page, wrapping around', () => {
    const second = withCamTiles(profiles, ['c1', 'c2', 'c3'], 2).filter((i) => i.kind === 'cam')
    expect(second.map((i) => i.item)).toEqual(['c3', 'c1'])
  })

  it('grid page size is 12 (spec §2, §9): the cam pattern repeats every 12 profiles', () => {
    expect(SEARCH_PAGE_SIZE).toBe(12)
    expect(CAM_AFTER_INDEXES).toEqual([1, 5])
    const two = Array.from({ length: 24 }, (_, i) => `p${i}`)
    const after = withCamTiles(two, ['c1', 'c2', 'c3', 'c4']).flatMap((item, i, all) => {
      const prev = all[i - 1]
      return item.kind === 'cam' && prev?.kind === 'profile' ? [prev.index] : []
    })
    expect(after).toEqual([1, 5, 13, 17])
  })

  it('adds nothing without cams, and only after profiles that exist', () => {
    expect(layout(withCamTiles(profiles.slice(0, 4), []))).toEqual(['p0', 'p1', 'p2', 'p3'])
    expect(layout(withCamTiles(profiles.slice(0, 3), ['c']))).toEqual(['p0', 'p1', '[c]', 'p2'])
    expect(layout(withCamTiles(['p0'], ['c']))).toEqual(['p0'])
  })
})

describe('settings readers', () => {
  it('read what the page needs from stored settings, and nothing from junk', () => {
    const s = { member_resell: ['cams', 3], fictional_icon: true, visible_profile_fields: ['a'] }
    expect(memberResellOf(s)).toEqual(['cams'])
    expect(fictionalIconOf(s)).toBe(true)
    expect(visibleListOf(s, 'visible_profile_fields')).toEqual(['a'])
    expect(memberResellOf(undefined)).toBeUndefined()
    expect(memberResellOf('x')).toBeUndefined()
    expect(fictionalIconOf({ fictional_icon: 'yes' })).toBe(false)
  })

  it('keys webcam results by gender and ages', () => {
    expect(camsKey({ gender: 'female', min_age: 18, max_age: 25 })).toBe('female|18|25')
    expect(camsKey({})).toBe('||')
  })
})
