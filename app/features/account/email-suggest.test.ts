import { describe, expect, it } from 'vitest'
import { DOMAINS, SUGGEST_THRESHOLD, suggestEmail } from './email-suggest.ts'

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
})
