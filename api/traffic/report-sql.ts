// What the console's traffic report needs of lander_visits.
import { type SQL, sql } from 'drizzle-orm'

/**
 * Lander visits of the days [from, to] (YYYY-MM-DD), as a statement to
 * select from: day, site, network, sub1, lander, visits.
 */
export const landerVisitsSql = (from: string, to: string): SQL => sql`
  SELECT v.day, v.site, v.network, v.sub1, v.lander, v.visits
  FROM lander_visits v
  WHERE v.day >= ${from}::date AND v.day <= ${to}::date`
