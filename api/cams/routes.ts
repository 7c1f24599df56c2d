import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { loadCamsConfig } from '../config.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { CamsResponse } from '../contract/index.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import { pathOf, queryOf } from '../http/validate.ts'
import { loadSettings } from '../settings/index.ts'
import { liveMember } from '../shared/members.ts'
import { type CamProvider, camProvider, DEFAULT_RESELL_PARTNER_URL, mayViewCams } from './cams.ts'

export interface CamsDeps {
  provider: CamProvider
  /** Where the resell-partner click goes; default a same-origin demo page. */
  resellPartnerUrl?: string | undefined
}

/** The provider and click targets the environment configures (api/config.ts). */
export function camsFromEnv(env: NodeJS.ProcessEnv = process.env): CamsDeps {
  const config = loadCamsConfig(env)
  return { provider: camProvider(config), resellPartnerUrl: config.resellPartnerUrl }
}

/**
 * Webcam tiles (spec §7): the feed for the member grid, and the two click
 * targets. The feed is empty for a member who may not see cams (spec §6), so
 * the client needs no rule of its own. The redirects need no session: they
 * lead to fixed, configured places (never an address from the request).
 */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

export const camsRoutes = (db: Db, deps: CamsDeps) =>
  new Hono<AuthEnv>()
    .get(pathOf(endpoints.cams), requireMember(db), queryOf(endpoints.cams), async (c) => {
      const q = c.req.valid('query')
      if (q.min_age !== undefined && q.max_age !== undefined && q.min_age > q.max_age) {
        throw new ApiFailure(400, 'invalid_input', 'min_age', 'min_age must not exceed max_age')
      }
      const [me, settings] = await Promise.all([
        liveMember(db, c.get('memberId')),
        loadSettings(db),
      ])
      if (!me) throw new ApiFailure(403, 'not_logged_in')
      const cams = mayViewCams(me, settings.member_resell) ? await deps.provider.search(q) : []
      return c.json({ cams } satisfies CamsResponse)
    })
    .get(pathOf(endpoints.camRedirect), queryOf(endpoints.camRedirect), (c) => {
      const target = deps.provider.redirectUrl(c.req.valid('query').account)
      if (target === null) throw notFound()
      return c.redirect(target, 302)
    })
    // The built-in demo provider's own page: where a cam click lands while no
    // real provider is configured. Plain HTML, escaped, nothing downloaded.
    .get(pathOf(endpoints.camDemo), queryOf(endpoints.camDemo), (c) => {
      const { account, flow } = c.req.valid('query')
      const what = account ? `the live cam of ${escapeHtml(account)}` : 'the partner site'
      return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo webcam provider</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem">
<main><h1>Demo webcam provider</h1>
<p>This is an advertisement placeholder: with a real provider configured (CAMS_REDIRECT_BASE${
        flow ? ', RESELL_PARTNER_URL' : ''
      }), ${what} would open here.</p>
<p><a href="/members">Back to the members</a></p></main></body></html>`)
    })
    .get(pathOf(endpoints.resellPartner), queryOf(endpoints.resellPartner), (c) =>
      c.redirect(deps.resellPartnerUrl ?? DEFAULT_RESELL_PARTNER_URL, 302),
    )
