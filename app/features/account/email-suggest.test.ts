// The library's own distance (Sift3), to show each input below sits at the distance it claims.
import sift3Distance from '@zootools/email-spell-checker/dist/lib/fuzzy-detection/sift3-distance.js'
import { describe, expect, it } from 'vitest'
import {
  DOMAINS,
  SECOND_LEVEL_DOMAINS,
  SUGGEST_THRESHOLD,
  suggestEmail,
  TOP_LEVEL_DOMAINS,
} from './email-suggest.ts'

/** Distance to the nearest entry of a list (0 for an exact entry). */
const nearest = (s: string, list: readonly string[]) =>
  Math.min(...list.map((x) => (x === s ? 0 : sift3Distance(s, x))))

describe('did-you-mean for mail domains (spec §5)', () => {
  it('knows the Dutch, Belgian and Polish providers', () => {
    for (const d of [
      'ziggo.nl',
      'kpnmail.nl',
      'hotmail.nl',
      'live.nl',
      'home.nl',
      'planet.nl',
      'xs4all.nl',
      'telfort.nl',
      'telenet.be',
      'skynet.be',
      'proximus.be',
      'hotmail.be',
      'wp.pl',
      'onet.pl',
      'o2.pl',
      'interia.pl',
      'gazeta.pl',
    ]) {
      expect(DOMAINS).toContain(d)
    }
    expect(SUGGEST_THRESHOLD).toBe(2)
  })

  it.each([
    // whole-domain distance
    ['jan@gmial.com', 'jan@gmail.com'],
    ['jan@zigo.nl', 'jan@ziggo.nl'],
    ['jan@kpnmial.nl', 'jan@kpnmail.nl'],
    ['jan@xs4al.nl', 'jan@xs4all.nl'],
    ['jan@telenet.bee', 'jan@telenet.be'],
    ['jan@skynet.b', 'jan@skynet.be'],
    ['jan@proximus.bo', 'jan@proximus.be'],
    ['ola@wp.pk', 'ola@wp.pl'],
    ['ola@onet.pk', 'ola@onet.pl'],
    ['ola@interia.pll', 'ola@interia.pl'],
    // top-level part
    ['jan@gmail.con', 'jan@gmail.com'],
    ['jan@hotmail.nll', 'jan@hotmail.nl'],
    // the local part stays as typed
    ['Jan.Smit@Hotmial.com', 'Jan.Smit@hotmail.com'],
  ])('%s → %s', (typed, want) => expect(suggestEmail(typed)).toBe(want))

  it.each([
    'jan@gmail.com',
    'jan@ziggo.nl',
    'ola@o2.pl',
    'ola@gazeta.pl',
    'jan@mail.com',
    'jan@example.com',
    'jan@tudelft.nl',
    'jan@company.nl',
    'jan',
    'jan@ziggo',
    '@ziggo.nl',
  ])('no suggestion for %s', (typed) => expect(suggestEmail(typed)).toBeNull())

  // Each input's whole domain is more than 2 from every known domain, so the
  // second-level or top-level rule alone decides (spec §5: threshold 2 for each).
  it.each([
    ['jan@gnail.org', 'gnail', 1, 'jan@gmail.org'],
    ['jan@zigfo.org', 'zigfo', 1, 'jan@ziggo.org'],
    ['jan@hitmail.org', 'hitmail', 2, 'jan@hotmail.org'],
    ['jan@zixxo.org', 'zixxo', 2, 'jan@ziggo.org'],
  ] as const)(
    'second-level threshold is 2 (spec §5): %s (second level %s at distance %i) → %s',
    (typed, sld, distance, want) => {
      expect(nearest(typed.split('@')[1] ?? '', DOMAINS)).toBeGreaterThan(2)
      expect(nearest(sld, SECOND_LEVEL_DOMAINS)).toBe(distance)
      expect(suggestEmail(typed)).toBe(want)
    },
  )

  it.each([
    ['jan@telenet.xom', 'xom', 1, 'jan@telenet.com'],
    ['jan@interia.nrt', 'nrt', 1, 'jan@interia.net'],
    ['jan@ziggo.ocm', 'ocm', 2, 'jan@ziggo.com'],
    ['jan@interia.omc', 'omc', 2, 'jan@interia.com'],
  ] as const)(
    'top-level threshold is 2 (spec §5): %s (top level %s at distance %i) → %s',
    (typed, tld, distance, want) => {
      expect(nearest(typed.split('@')[1] ?? '', DOMAINS)).toBeGreaterThan(2)
      expect(nearest(tld, TOP_LEVEL_DOMAINS)).toBe(distance)
      expect(suggestEmail(typed)).toBe(want)
    },
  )

  it('no part suggestion beyond distance 2 (spec §5)', () => {
    // "telnett" is 3 from its nearest second level; the whole domain 5 from any domain.
    expect(nearest('telnett', SECOND_LEVEL_DOMAINS)).toBe(3)
    expect(suggestEmail('jan@telnett.org')).toBeNull()
  })
})
