-- Complaints from the public form, and the operator's report of sign-ups and
-- first purchases per affiliate network, sub id and lander.
CREATE TABLE "complaints" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"reference" text NOT NULL UNIQUE,
	"kind" text NOT NULL CHECK ("kind" IN ('notice', 'decision')),
	"name" text NOT NULL,
	"email" text NOT NULL,
	"subject" text NOT NULL,
	"url" text,
	"text" text NOT NULL,
	"good_faith" boolean NOT NULL,
	"member_id" bigint REFERENCES "members"("id") ON DELETE SET NULL,
	"locale" text NOT NULL,
	"status" text DEFAULT 'received' NOT NULL CHECK ("status" IN ('received', 'answered', 'closed')),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "complaints_status_idx" ON "complaints" USING btree ("status", "id");
--> statement-breakpoint
-- One row per network, sub1 and lander: sign-ups, and how many of them bought
-- (a 'purchase' row in the credit ledger), with the first purchase's time.
-- The lander is the tracking record's, else the lander the sign-up form was on.
CREATE VIEW "traffic_report" AS
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
GROUP BY m.network, m.sub1, m.lander;
