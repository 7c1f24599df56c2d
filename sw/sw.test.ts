// The service worker's pure parts, run in Node: push payload parsing,
// notification-click choice, page-message validation and cache matching.

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { PushPayload } from '../api/contract/rules/push.ts'
import {
  DEFAULT_CLICK_URL,
  DEFAULT_NOTIFICATION_TITLE,
  I18N_MAX_AGE_S,
  NAVIGATION_DENYLIST,
  PUSH_WORKER_URL,
} from './config.ts'
import { isLocaleMessages, isMediaImage } from './match.ts'
import { parsePageMessage } from './page-message.ts'
import {
  chooseClickTarget,
  notificationUrl,
  parsePushPayload,
  resolveClickUrl,
  type WindowLike,
} from './push.ts'

const ORIGIN = 'https://amora.example'

describe('parsePushPayload', () => {
  it('reads the JSON payload the server sends (the contract PushPayload)', () => {
    const sent: PushPayload = {
      kind: 'message',
      title: 'Anna',
      body: 'Hi there',
      url: '/chats/42',
      open_url: '/login?redirect=%2Fchats%2F42',
      badge: 3,
      tag: 'chat-42',
    }
    expect(parsePushPayload(JSON.stringify(sent))).toEqual(sent)
  })

  it('reads the open URL for a signed-out device (spec §4)', () => {
    const text = JSON.stringify({
      title: 'New message from Anna',
      body: 'Hi',
      url: '/chats/42',
      open_url: '/login?redirect=%2Fchats%2F42',
    })
    expect(parsePushPayload(text)).toMatchObject({
      url: '/chats/42',
      open_url: '/login?redirect=%2Fchats%2F42',
    })
    expect(parsePushPayload('{"title":"x","open_url":7}').open_url).toBeUndefined()
  })

  it('shows plain text as the body', () => {
    expect(parsePushPayload('You have a new like')).toEqual({
      title: DEFAULT_NOTIFICATION_TITLE,
      body: 'You have a new like',
    })
  })

  it('shows a JSON string as the body, and a bare JSON value as text', () => {
    expect(parsePushPayload('"hello"').body).toBe('hello')
    expect(parsePushPayload('42').body).toBe('42')
    expect(parsePushPayload('[1,2]').body).toBe('[1,2]')
    expect(parsePushPayload('null').body).toBe('null')
  })

  it('still makes a notification from an empty or missing payload', () => {
    for (const text of [undefined, null, '', '   ']) {
      expect(parsePushPayload(text)).toEqual({ title: DEFAULT_NOTIFICATION_TITLE, body: '' })
    }
  })

  it('falls back on a missing title and drops fields of the wrong type', () => {
    const payload = parsePushPayload(
      JSON.stringify({ title: '  ', body: 7, url: 5, badge: '3', tag: '' }),
    )
    expect(payload).toEqual({ title: DEFAULT_NOTIFICATION_TITLE, body: '' })
  })

  it('keeps a kind only when the contract names it', () => {
    for (const kind of ['message', 'like', 'test'] as const) {
      expect(parsePushPayload(JSON.stringify({ title: 'x', kind })).kind).toBe(kind)
    }
    for (const kind of ['other', '', 7, null, 'toString', 'constructor']) {
      expect(parsePushPayload(JSON.stringify({ title: 'x', kind })).kind).toBeUndefined()
    }
  })

  it('keeps a badge only as a whole, non-negative number', () => {
    expect(parsePushPayload('{"badge":0}').badge).toBe(0)
    expect(parsePushPayload('{"badge":2.7}').badge).toBe(2)
    expect(parsePushPayload('{"badge":-4}').badge).toBe(0)
    expect(parsePushPayload('{"badge":null}').badge).toBeUndefined()
    expect(parsePushPayload('{"badge":1e999}').badge).toBeUndefined()
  })
})

describe('resolveClickUrl', () => {
  it('opens the chat list when the push names no URL', () => {
    expect(resolveClickUrl(undefined, ORIGIN)).toBe(`${ORIGIN}${DEFAULT_CLICK_URL}`)
  })

  it('resolves paths and same-origin URLs', () => {
    expect(resolveClickUrl('/likes/new?x=1', ORIGIN)).toBe(`${ORIGIN}/likes/new?x=1`)
    expect(resolveClickUrl(`${ORIGIN}/members/7`, ORIGIN)).toBe(`${ORIGIN}/members/7`)
  })

  it('never leaves the site', () => {
    for (const url of [
      'https://evil.example/phish',
      '//evil.example/x',
      'javascript:alert(1)',
      'data:text/html,hi',
      'http://amora.example/chats',
    ]) {
      expect(resolveClickUrl(url, ORIGIN)).toBe(`${ORIGIN}${DEFAULT_CLICK_URL}`)
    }
  })
})

describe('chooseClickTarget', () => {
  const win = (path: string, focused = false, visible = false): WindowLike => ({
    url: `${ORIGIN}${path}`,
    focused,
    visibilityState: visible ? 'visible' : 'hidden',
  })
  const target = `${ORIGIN}/chats/42`

  it('opens a window when none is open', () => {
    expect(chooseClickTarget([], target)).toEqual({ action: 'open', url: target })
  })

  it('just focuses a window already showing the page', () => {
    const showing = win('/chats/42#bottom')
    const choice = chooseClickTarget([win('/members', true), showing], target)
    expect(choice).toEqual({ action: 'focus', client: showing, navigate: false })
  })

  it('prefers the focused window, then a visible one, then any', () => {
    const hidden = win('/members')
    const visible = win('/likes', false, true)
    const focused = win('/profile', true, true)
    expect(chooseClickTarget([hidden, visible, focused], target)).toEqual({
      action: 'focus',
      client: focused,
      navigate: true,
    })
    expect(chooseClickTarget([hidden, visible], target)).toMatchObject({ client: visible })
    expect(chooseClickTarget([hidden], target)).toMatchObject({ client: hidden, navigate: true })
  })

  it('reads the URL stored on the notification', () => {
    expect(notificationUrl({ url: `${ORIGIN}/chats` })).toBe(`${ORIGIN}/chats`)
    expect(notificationUrl(undefined)).toBeUndefined()
    expect(notificationUrl({ url: 3 })).toBeUndefined()
  })

  it('opens the check URL when signed in or unsure, the open URL when signed out (spec §4)', () => {
    const data = { url: `${ORIGIN}/chats/42`, openUrl: `${ORIGIN}/login?redirect=%2Fchats%2F42` }
    expect(notificationUrl(data, true)).toBe(data.url)
    expect(notificationUrl(data, undefined)).toBe(data.url)
    expect(notificationUrl(data, false)).toBe(data.openUrl)
    // A notification from an older payload without an open URL.
    expect(notificationUrl({ url: data.url }, false)).toBe(data.url)
  })
})

describe('parsePageMessage', () => {
  it('accepts the four page messages', () => {
    expect(parsePageMessage({ type: 'SKIP_WAITING' })).toEqual({ type: 'SKIP_WAITING' })
    expect(parsePageMessage({ type: 'SESSION' })).toEqual({ type: 'SESSION' })
    expect(parsePageMessage({ type: 'CLEAR_USER_CACHES' })).toEqual({ type: 'CLEAR_USER_CACHES' })
    expect(parsePageMessage({ type: 'SET_BADGE', count: 5 })).toEqual({
      type: 'SET_BADGE',
      count: 5,
    })
    expect(parsePageMessage({ type: 'SET_BADGE', count: 0 })).toEqual({
      type: 'SET_BADGE',
      count: 0,
    })
  })

  it('ignores anything else', () => {
    for (const data of [
      null,
      'SKIP_WAITING',
      {},
      { type: 'skip_waiting' },
      { type: 'SET_BADGE' },
      { type: 'SET_BADGE', count: '2' },
      { type: 'SET_BADGE', count: Number.NaN },
    ]) {
      expect(parsePageMessage(data)).toBeUndefined()
    }
  })
})

describe('runtime cache matching', () => {
  const url = (href: string) => new URL(href, ORIGIN)

  it('caches member photos under /media/', () => {
    expect(isMediaImage(url('/media/p/1/thumb.jpg'), 'image', ORIGIN)).toBe(true)
    expect(isMediaImage(url('/media/p/1/thumb.webp'), '', ORIGIN)).toBe(true)
    expect(isMediaImage(url('https://cdn.example/media/p/1.jpg'), 'image', ORIGIN)).toBe(true)
  })

  it('leaves other media, other paths and API calls to the network', () => {
    expect(isMediaImage(url('/media/v/intro.mp4'), 'video', ORIGIN)).toBe(false)
    expect(isMediaImage(url('https://cdn.example/media/p/1.jpg'), '', ORIGIN)).toBe(false)
    expect(isMediaImage(url('/api/profileimage.php'), 'image', ORIGIN)).toBe(false)
    expect(isMediaImage(url('/icons/icon-192.png'), 'image', ORIGIN)).toBe(false)
  })

  it('caches locale messages of this origin only, for 24 hours', () => {
    expect(isLocaleMessages(url('/_i18n/nl/messages.json'), ORIGIN)).toBe(true)
    expect(isLocaleMessages(url('https://cdn.example/_i18n/nl/messages.json'), ORIGIN)).toBe(false)
    expect(isLocaleMessages(url('/api/user.php'), ORIGIN)).toBe(false)
    expect(I18N_MAX_AGE_S).toBe(24 * 60 * 60)
  })

  it('gives every app path the shell, but not API, media, locale files, the console or the probes', () => {
    const denied = (path: string) => NAVIGATION_DENYLIST.some((re) => re.test(path))
    for (const path of [
      '/',
      '/login',
      '/chats/42',
      '/members/7/landing2/slug',
      '/api-docs',
      '/operators-faq',
      '/healthzone',
      '/metrics-explained',
    ]) {
      expect(denied(path)).toBe(false)
    }
    for (const path of [
      '/api/xcams/redirect.php?account=1',
      '/media/p/1.jpg',
      '/_i18n/en/messages.json',
      '/operator',
      '/operator/login',
      '/operator/queue',
      '/healthz',
      '/readyz',
      '/readyz?verbose=1',
      '/metrics',
    ]) {
      expect(denied(path)).toBe(true)
    }
  })
})

describe.each(['sw.ts', 'sw-push.ts'])('%s source', (file) => {
  const source = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8')

  it('says on its first line that it must not import the app bundle', () => {
    expect(source.split('\n')[0]).toMatch(/^\/\/ .*must not import the app bundle/)
  })

  it('imports only Workbox and its own folder', () => {
    const specifiers = [...source.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1])
    expect(specifiers.length).toBeGreaterThan(0)
    for (const specifier of specifiers)
      expect(specifier).toMatch(/^(workbox-[a-z-]+|\.\/[\w-]+\.ts)$/)
  })
})

describe('sw.ts and the push worker', () => {
  it('/sw.js imports /sw-push.js?v=2 (spec §7): one scope, one worker', () => {
    const source = readFileSync(new URL('./sw.ts', import.meta.url), 'utf8')
    expect(source).toContain('importScripts(PUSH_WORKER_URL)')
    expect(PUSH_WORKER_URL).toBe('/sw-push.js?v=2')
  })
})
