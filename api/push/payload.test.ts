// The push payload (spec §4 push, install badge, open and check URL): its size
// limit, its texts in every locale, and where a click goes.
import { describe, expect, it } from 'vitest'
import { Locale } from '../contract/index.ts'
import {
  buildPushPayload,
  checkUrl,
  encodePushPayload,
  fitPayload,
  openUrl,
  PREVIEW_MAX_GRAPHEMES,
  PUSH_PAYLOAD_MAX_BYTES,
  type PushEvent,
  previewOf,
} from './payload.ts'
import { PUSH_TEXTS, pushTexts } from './texts.ts'

const anna = { id: 7, name: 'Anna' }
const message = (text: string, conversation = 42): PushEvent => ({
  kind: 'message',
  from: anna,
  conversation,
  text,
})
const like: PushEvent = { kind: 'like', from: anna }

describe('push payload size', () => {
  it('is at most 3,993 bytes, the aes128gcm plaintext of one 4,096-byte record', () => {
    expect(PUSH_PAYLOAD_MAX_BYTES).toBe(3993)
    expect(4096 - 86 - 16 - 1).toBe(PUSH_PAYLOAD_MAX_BYTES)
  })

  it('cuts a huge message to fit, at a grapheme boundary, even with no preview limit', () => {
    // 4-byte emoji, a ZWJ family, combining accents, escaped controls and quotes.
    const unit = '😀👨‍👩‍👧e\u0301"\\\u0001 ĳ '
    const huge = unit.repeat(20_000)
    const payload = buildPushPayload(message(huge), {
      locale: 'en',
      badge: 3,
      previewGraphemes: Number.POSITIVE_INFINITY,
    })
    const bytes = encodePushPayload(payload)
    expect(bytes.length).toBeLessThanOrEqual(3993)
    // Close to the limit: the cut wastes at most one grapheme's worth.
    expect(bytes.length).toBeGreaterThan(3993 - 40)
    const parsed = JSON.parse(bytes.toString('utf8'))
    expect(parsed).toEqual(payload)
    expect(payload.body.endsWith('…')).toBe(true)
    expect(payload.body.isWellFormed()).toBe(true)
    const kept = payload.body.slice(0, -1)
    expect(huge.replace(/\s+/gu, ' ').startsWith(kept)).toBe(true)
    // Never half a family or a letter without its accent.
    const segments = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(kept)]
    expect(['😀', '👨‍👩‍👧', 'e\u0301', '"', '\\', '\u0001', 'ĳ']).toContain(
      segments.at(-1)?.segment,
    )
    // The rest of the payload is untouched.
    expect(payload).toMatchObject({ title: 'New message from Anna', url: '/chats/42', badge: 3 })
  })

  it('shows at most 200 graphemes of a message by default', () => {
    expect(PREVIEW_MAX_GRAPHEMES).toBe(200)
    const payload = buildPushPayload(message('ab'.repeat(1000)), { locale: 'en', badge: 0 })
    expect(payload.body).toBe(`${'ab'.repeat(100)}…`)
    expect(buildPushPayload(message('short'), { locale: 'en', badge: 0 }).body).toBe('short')
  })

  it('makes a preview one paragraph and counts graphemes, not code units', () => {
    expect(previewOf('  hi\n\n  there\t!  ', 200)).toBe('hi there !')
    expect(previewOf('👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧', 2)).toBe('👨‍👩‍👧👨‍👩‍👧…')
    expect(previewOf('👨‍👩‍👧👨‍👩‍👧', 2)).toBe('👨‍👩‍👧👨‍👩‍👧')
  })

  it('cuts the title too when the body alone cannot make room', () => {
    const payload = buildPushPayload(
      { kind: 'message', from: { id: 1, name: '名'.repeat(3000) }, conversation: 1, text: 'x' },
      { locale: 'en', badge: 0 },
    )
    expect(encodePushPayload(payload).length).toBeLessThanOrEqual(3993)
    expect(payload.title.endsWith('…')).toBe(true)
    expect(payload.url).toBe('/chats/1')
  })

  it('fits any limit it is given', () => {
    const payload = buildPushPayload(message('x'.repeat(150)), { locale: 'en', badge: 0 })
    const small = fitPayload(payload, 220)
    expect(encodePushPayload(small).length).toBeLessThanOrEqual(220)
    expect(small.body.endsWith('…')).toBe(true)
  })
})

describe('push payload content', () => {
  it('announces a message: the preview, the chat as check URL, login then chat as open URL', () => {
    const payload = buildPushPayload(message('Hi there', 5), { locale: 'en', badge: 4 })
    expect(payload).toEqual({
      kind: 'message',
      title: 'New message from Anna',
      body: 'Hi there',
      url: '/chats/5',
      open_url: '/login?redirect=%2Fchats%2F5',
      badge: 4,
      tag: 'chat-5',
      conversation: 5,
    })
  })

  it('announces a like with the received likes as check URL', () => {
    expect(buildPushPayload(like, { locale: 'en', badge: 1 })).toEqual({
      kind: 'like',
      title: 'New like',
      body: 'Anna likes you.',
      url: '/likes',
      open_url: '/login?redirect=%2Flikes',
      badge: 1,
      tag: 'likes',
    })
    expect(checkUrl(like)).toBe('/likes')
    expect(openUrl('/chats/9')).toBe('/login?redirect=%2Fchats%2F9')
  })

  it('says "open the chat" when a message has no text to preview', () => {
    expect(buildPushPayload(message('  \n '), { locale: 'nl', badge: 0 }).body).toBe(
      'Open de chat om het te lezen.',
    )
  })

  it('speaks each of the seven locales, and English for anything else', () => {
    expect(Object.keys(PUSH_TEXTS).sort()).toEqual([...Locale.options].sort())
    const titles = new Set<string>()
    for (const locale of Locale.options) {
      const m = buildPushPayload(message('hej'), { locale, badge: 0 })
      const l = buildPushPayload(like, { locale, badge: 0 })
      expect(m.title).toContain('Anna')
      expect(l.body).toContain('Anna')
      titles.add(l.title)
    }
    expect(titles.size).toBe(7)
    expect(buildPushPayload(like, { locale: 'nl', badge: 0 })).toMatchObject({
      title: 'Nieuwe like',
      body: 'Anna vindt je leuk.',
    })
    expect(buildPushPayload(like, { locale: 'de', badge: 0 }).body).toBe('Ihr Profil gefällt Anna.')
    expect(pushTexts('xx').locale).toBe('en')
    expect(pushTexts(null).locale).toBe('en')
  })

  it('makes Polish verbs agree with the sender', () => {
    const pl = (fromGender?: string) =>
      buildPushPayload(like, { locale: 'pl', badge: 0, fromGender }).body
    expect(pl('female')).toBe('Anna polubiła Twój profil.')
    expect(pl('male')).toBe('Anna polubił Twój profil.')
    expect(pl(undefined)).toBe('Nowe polubienie Twojego profilu od: Anna.')
  })

  it('never shows a negative or fractional badge', () => {
    expect(buildPushPayload(like, { locale: 'en', badge: -2 }).badge).toBe(0)
    expect(buildPushPayload(like, { locale: 'en', badge: 2.9 }).badge).toBe(2)
  })
})
