import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { loadCamsConfig } from '../config.ts'
import { type AuthEnv, requireMember } from '../auth/session.ts'
import {
  CamRedirectQuery,
  CamsQuery,
  type CamsResponse,
  ResellPartnerQuery,
} from '../contract/index.ts'
import { ApiFailure, notFound } from '../errors.ts'
import {
  type CamProvider,
  camProvider,
  DEFAULT_RESELL_PARTNER_URL,
  mayViewCams,
} from '../services/cams.ts'
import { loadSettings } from '../services/settings.ts'
import { liveMember } from '../services/user.ts'
import { validate } from '../validate.ts'

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
export const camsRoutes = (db: Db, deps: CamsDeps) =>
  new Hono<AuthEnv>()
    .get('/xcams/search.php', requireMember(db), validate('query', CamsQuery), async (c) => {
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
    .get('/xcams/redirect.php', validate('query', CamRedirectQuery), (c) => {
      const target = deps.provider.redirectUrl(c.req.valid('query').account)
      if (target === null) throw notFound()
      return c.redirect(target, 302)
    })
    .get('/resellpartner.php', validate('query', ResellPartnerQuery), (c) =>
      c.redirect(deps.resellPartnerUrl ?? DEFAULT_RESELL_PARTNER_URL, 302),
    )
