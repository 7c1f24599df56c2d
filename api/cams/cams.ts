// Webcam tiles (spec §2 member grid, §6 who sees them, §7 xcams calls). The
// feed comes from a provider adapter: an upstream JSON feed when
// CAMS_UPSTREAM_URL is set (production), the built-in demo feed otherwise.
//
// Demo defaults (no variable set, nothing is downloaded):
// - the feed is DEMO_CAMS below: 24 fictional accounts, thumbnails are inline
//   SVG data URLs;
// - a click (/api/xcams/redirect.php?account=) goes to DEFAULT_CAM_REDIRECT_BASE
//   + account, a page of the demo provider (/api/xcams/demo.php) that says
//   what a real provider would show (CAMS_REDIRECT_BASE overrides);
// - /api/resellpartner.php?flow=profile-search&redirect=1 goes to
//   DEFAULT_RESELL_PARTNER_URL (RESELL_PARTNER_URL overrides).
import { z } from 'zod'
import type { CamsConfig } from '../config.ts'
import { Cam, type Gender, MAX_AGE, MIN_AGE } from '../contract/index.ts'
import { camsEligible } from '../contract/rules/cams.ts'

export interface CamSearch {
  gender?: Gender | undefined
  min_age?: number | undefined
  max_age?: number | undefined
}

export interface CamProvider {
  /** Cams matching the query; never throws (an unreachable feed is an empty one). */
  search(q: CamSearch): Promise<Cam[]>
  /** Where a click on `account` goes; null for an account the provider does not know. */
  redirectUrl(account: string): string | null
}

/** How long a tile row may wait for the upstream feed before it shows without cams. */
export const CAMS_UPSTREAM_TIMEOUT_MS = 1500
/** The most cams one answer carries: two tiles per page of 12 (spec §2), for 12 pages. */
export const MAX_CAMS = 24

export const DEFAULT_CAM_REDIRECT_BASE = '/api/xcams/demo.php?account='
export const DEFAULT_RESELL_PARTNER_URL = '/api/xcams/demo.php?flow=profile-search'

/** Spec §6: not paid, member for more than 4 days, and the operator resells cams. */
export function mayViewCams(
  member: { paidUser: boolean; signupDate: Date },
  memberResell: readonly string[],
  now = Date.now(),
): boolean {
  return camsEligible(
    { paidUser: member.paidUser, signupAt: member.signupDate.getTime() },
    memberResell,
    now,
  )
}

const matches = (q: CamSearch) => (cam: Cam) =>
  (q.gender === undefined || cam.gender === q.gender) &&
  cam.age >= (q.min_age ?? MIN_AGE) &&
  cam.age <= (q.max_age ?? MAX_AGE)

const redirectTo = (base: string, account: string) => `${base}${encodeURIComponent(account)}`

// --- demo feed -------------------------------------------------------------

const DEMO_NAMES = [
  ['Luna', 'female'],
  ['Mila', 'female'],
  ['Noor', 'female'],
  ['Jake', 'male'],
  ['Sofia', 'female'],
  ['Emma', 'female'],
  ['Lars', 'male'],
  ['Yara', 'female'],
  ['Zoe', 'female'],
  ['Finn', 'male'],
  ['Ivy', 'female'],
  ['Nina', 'female'],
  ['Mateo', 'male'],
  ['Lotte', 'female'],
  ['Aria', 'female'],
  ['Tom', 'male'],
  ['Julia', 'female'],
  ['Sara', 'female'],
  ['Ruben', 'male'],
  ['Eva', 'female'],
  ['Lena', 'female'],
  ['Max', 'male'],
  ['Mia', 'female'],
  ['Chloe', 'female'],
] as const

const HUES = [330, 12, 280, 200, 40, 160]

/** A small inline picture (initial on a coloured ground): no download, works offline. */
function demoThumb(name: string, i: number): string {
  const hue = HUES[i % HUES.length]
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 160">` +
    `<rect width="120" height="160" fill="hsl(${hue} 60% 45%)"/>` +
    `<text x="60" y="98" font-family="sans-serif" font-size="56" fill="#fff" text-anchor="middle">${name[0]}</text>` +
    `</svg>`
  return `data:image/svg+xml,${encodeURIComponent(svg)}`
}

/** The demo feed: deterministic, so tests and screenshots are stable. Ages span 19-61. */
export const DEMO_CAMS: readonly Cam[] = DEMO_NAMES.map(([name, gender], i) => ({
  account: `demo-${name.toLowerCase()}`,
  name,
  age: 19 + ((i * 7) % 43),
  gender,
  thumb_url: demoThumb(name, i),
  online: i % 4 !== 3,
}))

export function demoCamProvider(redirectBase = DEFAULT_CAM_REDIRECT_BASE): CamProvider {
  const accounts = new Set(DEMO_CAMS.map((c) => c.account))
  return {
    search: async (q) => DEMO_CAMS.filter(matches(q)).slice(0, MAX_CAMS),
    redirectUrl: (account) => (accounts.has(account) ? redirectTo(redirectBase, account) : null),
  }
}

// --- upstream feed ---------------------------------------------------------

/**
 * Accounts the upstream may name: also what makes the redirect URL safe to
 * build (no slash, no leading dot, so no path tricks on the partner's host).
 */
const ACCOUNT = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/
/** A thumbnail a tile may show: https, or an image data URL. */
const SAFE_THUMB = /^(https:\/\/|data:image\/(png|jpeg|webp|svg\+xml)[;,])/

const UpstreamFeed = z.union([z.object({ cams: z.array(z.unknown()) }), z.array(z.unknown())])

/**
 * The production adapter: GET `url?gender=&min_age=&max_age=` answering
 * `{cams: Cam[]}` (or a bare array). Each entry is validated on its own, so
 * one bad entry costs one tile; results are filtered again here because an
 * upstream may ignore the query.
 */
export function httpCamProvider(
  url: string,
  redirectBase = DEFAULT_CAM_REDIRECT_BASE,
  fetchFn: typeof fetch = fetch,
): CamProvider {
  return {
    async search(q) {
      const target = new URL(url)
      for (const [k, v] of Object.entries(q)) {
        if (v !== undefined) target.searchParams.set(k, String(v))
      }
      try {
        const res = await fetchFn(target, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(CAMS_UPSTREAM_TIMEOUT_MS),
        })
        if (!res.ok) throw new Error(`HTTP ${res.status}`)
        const feed = UpstreamFeed.parse(await res.json())
        const entries = Array.isArray(feed) ? feed : feed.cams
        return entries
          .flatMap((e) => {
            const cam = Cam.safeParse(e)
            return cam.success &&
              ACCOUNT.test(cam.data.account) &&
              SAFE_THUMB.test(cam.data.thumb_url)
              ? [cam.data]
              : []
          })
          .filter(matches(q))
          .slice(0, MAX_CAMS)
      } catch (e) {
        // Cams are advertising: a feed failure must never break the member grid.
        console.error('cams: upstream feed failed', target.origin, String(e))
        return []
      }
    },
    redirectUrl: (account) => (ACCOUNT.test(account) ? redirectTo(redirectBase, account) : null),
  }
}

export function camProvider(config: CamsConfig): CamProvider {
  return config.upstreamUrl
    ? httpCamProvider(config.upstreamUrl, config.redirectBase)
    : demoCamProvider(config.redirectBase)
}
