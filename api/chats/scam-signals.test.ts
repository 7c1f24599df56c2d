// The scam signals of a message's text: each rule fires on the forms it is
// for, and none fires on the demo seed's chat lines or on ordinary dating
// talk about money, numbers and places (false positives are worse than a slow
// scammer). Each case names the rule it pins: break that rule and it fails.
import { describe, expect, it } from 'vitest'
import {
  CHAT_NUDGE,
  CHAT_SCRIPTS,
  NOTE_SNIPPETS,
  OLDER_NOTE_SNIPPETS,
} from '../../db/seed/names.ts'
import { messageSignals, PHONE_MIN_DIGITS, scamWarning } from '../contract/rules/scam.ts'

describe('scam signals', () => {
  it('pins the phone rule at 9 digits', () => {
    expect(PHONE_MIN_DIGITS).toBe(9)
  })

  it.each([
    ['link', 'look at my photos on https://example.com/me'],
    ['link', 'more pictures at www.mypics.example'],
    ['link', 'find me at lovely-lisa.xyz'],
    ['email', 'write me at lisa.m1985@mail.example'],
    ['phone', 'call me +31 6 12345678'],
    ['phone', 'my number is 06-12 34 56 78'],
    ['phone', 'text (555) 123-4567 tonight'],
    ['messenger', 'add me on WhatsApp, I am rarely here'],
    ['messenger', 'do you have telegram?'],
    ['messenger', 'my snapchat is lisa85'],
    ['payment', 'can you send me money for the ticket'],
    ['payment', 'please buy a gift card for me'],
    ['payment', 'I only accept bitcoin'],
    ['payment', 'kun je het geld overmaken?'],
    ['payment', 'kannst du mir das Geld überweisen'],
    ['payment', 'zrób mi przelew'],
    ['payment', 'my IBAN is below'],
  ] as const)('the %s rule fires on "%s"', (signal, text) => {
    expect(messageSignals(text)).toContain(signal)
  })

  it('an e-mail address is not also a link', () => {
    expect(messageSignals('lisa@mail.example')).toEqual(['email'])
  })

  it('the recipient is warned of paying before moving off the site', () => {
    expect(scamWarning('whatsapp me and send money')).toBe('payment')
    expect(scamWarning('whatsapp me')).toBe('off_site')
    expect(scamWarning('see you at eleven')).toBeNull()
  })

  it.each([
    "I'll pay for the coffee",
    'Meet at 11:30 near the station?',
    'I was born in 1985 and moved here in 2010',
    'It costs 25 euros, cheap!',
    'My phone died, sorry for the late answer',
    'I love Signal Hill when I travel',
    'Next week Thursday at 19.30?',
    'We need 2 or 3 hours for that hike',
    'Send me a picture of Max :)',
  ])('ordinary talk fires nothing: "%s"', (text) => {
    expect(messageSignals(text)).toEqual([])
  })

  it('tuned on the demo data: no seed chat line or profile text fires a signal', () => {
    const lines = [...CHAT_SCRIPTS.flat(), CHAT_NUDGE, ...NOTE_SNIPPETS, ...OLDER_NOTE_SNIPPETS]
    expect(lines.length).toBeGreaterThan(80)
    const fired = lines.filter((l) => messageSignals(l).length > 0)
    expect(fired).toEqual([])
  })
})
