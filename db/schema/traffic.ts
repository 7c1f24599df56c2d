// Traffic: visits to landers, and the operator's report of sign-ups and first
// purchases per affiliate network, sub id and lander.
import { sql } from 'drizzle-orm'
import { bigint, date, integer, pgTable, pgView, primaryKey, text } from 'drizzle-orm/pg-core'
import { ts } from './columns.ts'

/**
 * Visits to landers and member landing pages per UTC day, site, lander,
 * network and sub id ('' for none): aggregates only (api/traffic/visits.ts).
 */
export const landerVisits = pgTable(
  'lander_visits',
  {
    day: date('day').notNull(),
    site: text('site').notNull(),
    lander: text('lander').notNull(),
    network: text('network').notNull(),
    sub1: text('sub1').notNull(),
    visits: integer('visits').notNull().default(0),
  },
  (t) => [
    primaryKey({
      name: 'lander_visits_pkey',
      columns: [t.day, t.site, t.lander, t.network, t.sub1],
    }),
  ],
)

/**
 * One row per network, sub1 and lander: sign-ups, and how many of them bought
 * (a 'purchase' row in the credit ledger), with the first purchase's time.
 * The lander is the tracking record's, else the lander the sign-up form was on.
 */
export const trafficReport = pgView('traffic_report', {
  network: text('network'),
  sub1: text('sub1'),
  lander: text('lander'),
  signups: bigint('signups', { mode: 'number' }),
  firstPurchases: bigint('first_purchases', { mode: 'number' }),
  firstSignupAt: ts('first_signup_at'),
  lastSignupAt: ts('last_signup_at'),
}).as(sql`
WITH m AS (
	SELECT
		id,
		signup_date,
		trafficsource->>'network' AS network,
		trafficsource->>'sub1' AS sub1,
		COALESCE(
			trafficsource->>'lander',
			substring(signup_meta->>'form_path' FROM '^/landers/([a-z]+)')
		) AS lander
	FROM members
	WHERE trafficsource IS NOT NULL
), p AS (
	SELECT member_id, min(created_at) AS first_purchase_at
	FROM credit_ledger
	WHERE reason = 'purchase'
	GROUP BY member_id
)
SELECT
	m.network,
	m.sub1,
	m.lander,
	count(*) AS signups,
	count(p.member_id) AS first_purchases,
	min(m.signup_date) AS first_signup_at,
	max(m.signup_date) AS last_signup_at
FROM m LEFT JOIN p ON p.member_id = m.id
GROUP BY m.network, m.sub1, m.lander`)
