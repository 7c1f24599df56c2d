import { describe, expect, it } from 'vitest'
import { cookieName } from '../../messages/paraglide/runtime.js'
import { LOCALE_COOKIE, requestLocale, shellInLocale } from './locale.ts'

describe('spec §4 language choice on the server', () => {
  it('reads the cookie the app stores (Paraglide’s)', () => {
    expect(LOCALE_COOKIE).toBe(cookieName)
  })

  it('takes the stored locale cookie before the browser language', () => {
    expect(requestLocale('sid=abc; PARAGLIDE_LOCALE=pl', 'de-DE,de;q=0.9')).toBe('pl')
  })

  it('takes the browser language when no cookie is stored, by its weights', () => {
    expect(requestLocale(undefined, 'de-AT,de;q=0.9,en;q=0.8')).toBe('de')
    expect(requestLocale('sid=abc', 'ja;q=0.9, fr-CA;q=0.8, nl;q=0.85')).toBe('nl')
    expect(requestLocale(undefined, 'it;q=0, es;q=0.5')).toBe('es')
  })

  it('falls back to en for a language the site does not speak, or none', () => {
    expect(requestLocale(undefined, 'ja,zh;q=0.8')).toBe('en')
    expect(requestLocale(undefined, undefined)).toBe('en')
    expect(requestLocale('PARAGLIDE_LOCALE=xx', '')).toBe('en')
  })

  it('skips a cookie naming a locale the site does not speak', () => {
    expect(requestLocale('PARAGLIDE_LOCALE=tlh', 'fr')).toBe('fr')
  })

  it('sets <html lang> in the page shell and nothing else', () => {
    const shell = '<!doctype html>\n<html lang="en">\n  <head><title>Amora</title></head></html>'
    expect(shellInLocale(shell, 'de')).toBe(
      '<!doctype html>\n<html lang="de">\n  <head><title>Amora</title></head></html>',
    )
  })
})
