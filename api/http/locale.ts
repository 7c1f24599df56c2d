import { Locale } from '../contract/common.ts'

// Spec §4 language choice, on the server: the stored locale cookie, then the
// browser's languages (Accept-Language, best first), then en. The app makes
// the same choice with Paraglide's runtime (cookie, preferredLanguage,
// baseLocale); the server makes it too so that the page shell's
// `<html lang>` is right before any script runs (screen readers, crawlers,
// the error page a bot gets).

/** Paraglide's cookie name (messages/paraglide/runtime.js `cookieName`). */
export const LOCALE_COOKIE = 'PARAGLIDE_LOCALE'
const FALLBACK: Locale = 'en'

const known = (tag: string | undefined): Locale | undefined => {
  const t = tag?.trim().toLowerCase()
  if (!t) return undefined
  const exact = Locale.safeParse(t)
  if (exact.success) return exact.data
  const base = Locale.safeParse(t.split('-')[0])
  return base.success ? base.data : undefined
}

function fromCookie(cookieHeader: string | undefined): Locale | undefined {
  for (const part of cookieHeader?.split(';') ?? []) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === LOCALE_COOKIE) return known(part.slice(eq + 1))
  }
  return undefined
}

function fromAcceptLanguage(header: string | undefined): Locale | undefined {
  const ranked = (header ?? '')
    .split(',')
    .map((entry, order) => {
      const [tag = '', ...params] = entry.split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      const weight = q === undefined ? 1 : Number(q.slice(2))
      return { tag, weight: Number.isFinite(weight) ? weight : 0, order }
    })
    .filter((l) => l.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
  for (const { tag } of ranked) {
    const locale = known(tag)
    if (locale) return locale
  }
  return undefined
}

/** The locale a request asks for, by the spec §4 order. */
export const requestLocale = (cookieHeader?: string, acceptLanguage?: string): Locale =>
  fromCookie(cookieHeader) ?? fromAcceptLanguage(acceptLanguage) ?? FALLBACK

/** The page shell with its `<html lang>` set to the locale. */
export const shellInLocale = (html: string, locale: Locale): string =>
  html.replace(/<html\b([^>]*?)\slang="[^"]*"/i, `<html$1 lang="${locale}"`)
