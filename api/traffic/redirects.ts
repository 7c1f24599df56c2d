// Redirects the server applies to page requests before the app shell answers
// (spec §2): the operator's route rules, then the localized slugs of the
// landers and member landing pages (one table, api/contract/rules/slugs.ts).
import type { MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import type { Db } from '../../db/client.ts'
import {
  isLander,
  isMemberLanding,
  isSlugLocale,
  parseSlug,
  type SlugLocale,
  type SlugPage,
  slugFor,
} from '../contract/rules/index.ts'
import { loadSettings } from '../settings/index.ts'
import { loadRouteRules, matchRule } from './route-rules.ts'

/** Paraglide's locale cookie: the app picks the language the same way (spec §4). */
const LOCALE_COOKIE = 'PARAGLIDE_LOCALE'

/** Spec §4 language choice as the app makes it: locale cookie, browser language, then en. */
export function visitorLocale(cookie: string | undefined, acceptLanguage: string | undefined) {
  if (cookie && isSlugLocale(cookie)) return cookie
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.find((p) => p.trim().startsWith('q='))
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 }
    })
    .filter((x) => x.tag !== '' && x.q > 0)
    .sort((a, b) => b.q - a.q)
  for (const { tag } of ranked) {
    const base = tag.split('-')[0] ?? ''
    if (isSlugLocale(base)) return base
  }
  return 'en' satisfies SlugLocale
}

type SlugTarget = { page: SlugPage; base: string; slug: string | undefined; rest: string }

/** The slug part of a lander or member landing path, or null for any other path. */
export function slugTarget(path: string): SlugTarget | null {
  const lander = /^\/landers\/([a-z]+)(?:\/([^/]*))?(\/.*)?$/.exec(path)
  if (lander?.[1] && isLander(lander[1])) {
    return {
      page: lander[1],
      base: `/landers/${lander[1]}`,
      slug: lander[2] || undefined,
      rest: lander[3] ?? '',
    }
  }
  const member = /^\/members\/(\d{1,12})\/([a-z0-9]+)(?:\/([^/]*))?\/?$/.exec(path)
  if (member?.[2] && isMemberLanding(member[2])) {
    return {
      page: member[2],
      base: `/members/${member[1]}/${member[2]}`,
      slug: member[3] || undefined,
      rest: '',
    }
  }
  return null
}

/**
 * Page requests only (GET and HEAD of a path that is neither the API, a
 * picture nor a built file).
 * A bare lander path and a slug of another language or niche answer 301 to
 * the visitor's slug, the query kept (it carries the tracking keys the app
 * stores, spec §9); an unknown slug is the shell with status 404.
 */
export function trafficRedirects(db: Db): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    const url = new URL(c.req.url)
    const path = url.pathname
    // Built files (a dot in the last segment: /assets/x.js, /sw.js) are never redirected.
    if (/\.[^/]*$/.test(path)) return next()
    const rule = matchRule(await loadRouteRules(db), path)
    if (rule)
      return c.redirect(rule.to.startsWith('/') ? rule.to + url.search : rule.to, rule.status)
    const target = slugTarget(path)
    if (!target) return next()
    const locale = visitorLocale(getCookie(c, LOCALE_COOKIE), c.req.header('accept-language'))
    const { niche } = await loadSettings(db)
    const right = slugFor(target.page, locale, niche)
    if (target.slug === right) return next()
    if (target.slug === undefined || parseSlug(target.page, target.slug)) {
      return c.redirect(`${target.base}/${right}${target.rest}${url.search}`, 301)
    }
    await next()
    c.res = new Response(c.res.body, { status: 404, headers: c.res.headers })
  }
}
