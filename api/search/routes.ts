import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { ApiFailure } from '../http/errors.ts'
import { requestHost } from '../http/host.ts'
import { fromAnotherSite } from '../http/origin.ts'
import { primaryReads, type ReadsFor } from '../http/reads.ts'
import { sessionMember } from '../http/session.ts'
import { pathOf, queryOf } from '../http/validate.ts'
import { loadSettings } from '../settings/index.ts'
import { liveMember } from '../shared/members.ts'
import { guestMaySearch, guestViewer, saveSearch, search } from './search.ts'
import { showcase } from './showcase.ts'

/**
 * GET /api/search.php (spec §7). Members search; a guest may too where the
 * operator allows logged-out search (spec §6 settings), else 403 as for any
 * member call without a session (spec §8). The session is checked on the
 * primary (a login a moment ago may not be on a replica yet); the rest is
 * read from `readsFor`'s handle (api/http/reads.ts), the saved search
 * written to the primary.
 */
export const searchRoutes = (db: Db, trustProxy: boolean, readsFor: ReadsFor = primaryReads(db)) =>
  new Hono()
    .get(pathOf(endpoints.search), queryOf(endpoints.search), async (c) => {
      const q = c.req.valid('query')
      const reader = readsFor(c)
      const memberId = await sessionMember(c, db)
      const [me, settings] = await Promise.all([
        memberId === null ? undefined : liveMember(reader, memberId),
        // The host's site: its niche picks the default gender.
        loadSettings(reader, requestHost(c, trustProxy)),
      ])
      if (!me) {
        if (!guestMaySearch(settings, q.trafficsource)) throw new ApiFailure(403, 'not_logged_in')
        return c.json((await search(reader, guestViewer(settings, q.country), q)).response)
      }
      const { response, filters } = await search(
        reader,
        { ...me, niche: settings.niche, fakeReportsToHide: settings.fake_reports_to_hide },
        q,
      )
      // Spec §7: a manual search is remembered unless do_not_save. Another
      // site's request (a link, an <img>) gets the results, which it cannot
      // read, but never overwrites the member's saved search.
      if (q.manual_search && !q.do_not_save && !fromAnotherSite(c)) {
        await saveSearch(db, me.id, filters)
      }
      return c.json(response)
    })
    // GET /api/showcase.php: public, the guest home's member photos (api/search/showcase.ts).
    .get(pathOf(endpoints.showcase), async (c) =>
      c.json({
        profiles: await showcase(db, await loadSettings(db, requestHost(c, trustProxy))),
      }),
    )
