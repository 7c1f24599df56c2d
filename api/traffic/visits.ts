// Visits to landers and member landing pages, for the traffic report per site.
//
// How a visit is counted, and why this way: the app posts a small beacon
// (POST /api/lander_visit.php) when a lander or member landing page is shown.
// Counting the HTML request on the server would miss every visit whose page
// the service worker served from its cache, and would count prefetches and
// bots that never render the page. The server, not the page, decides what
// counts, so a replayed or scripted beacon cannot inflate the figures:
// - bots are left out by User-Agent (api/http/bots.ts isAutomated: crawlers,
//   previewers, headless browsers, HTTP libraries; a missing User-Agent too); the app sends no
//   beacon from a browser under automation (navigator.webdriver);
// - one visitor (address, browser, site, page, network, sub id) counts once
//   per LIMITS.lander_visit window (30 minutes, a fixed window): reloads,
//   replays and React's double effects inside it count once;
// - each address may post LIMITS.lander_visit_ip beacons in 10 minutes, then 429;
// - only aggregates are stored (day, site, lander, network, sub id → visits);
//   the window's memory is a hash in rate_limits, gone within a day.
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { landerVisits } from '../../db/schema/index.ts'
import { isAutomated } from '../http/bots.ts'
import { hit } from '../http/ratelimit.ts'

export interface Visit {
  ip: string
  userAgent: string | undefined
  /** The site key (settings siteKeyOf), '' for the server-wide site. */
  site: string
  lander: string
  network?: string | undefined
  sub1?: string | undefined
  now: Date
}

/** Counts the visit unless it is a bot's or already counted in this window; true if counted. */
export async function recordVisit(db: Db, v: Visit): Promise<boolean> {
  if (isAutomated(v.userAgent)) return false
  const network = v.network ?? ''
  const sub1 = v.sub1 ?? ''
  const seen = await hit(
    db,
    'lander_visit',
    JSON.stringify([v.ip, v.userAgent, v.site, v.lander, network, sub1]),
    v.now.getTime(),
  )
  if (seen.count > 1) return false
  await db
    .insert(landerVisits)
    .values({
      day: v.now.toISOString().slice(0, 10),
      site: v.site,
      lander: v.lander,
      network,
      sub1,
      visits: 1,
    })
    .onConflictDoUpdate({
      target: [
        landerVisits.day,
        landerVisits.site,
        landerVisits.lander,
        landerVisits.network,
        landerVisits.sub1,
      ],
      set: { visits: sql`${landerVisits.visits} + 1` },
    })
  return true
}
