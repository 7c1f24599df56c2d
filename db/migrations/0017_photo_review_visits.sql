-- Photo pre-moderation: a picture uploaded while the site pre-moderates is
-- `pending` (seen only by its owner and the moderators) until approved.
ALTER TABLE "images" ADD COLUMN "status" text DEFAULT 'approved' NOT NULL CHECK ("status" IN ('approved', 'pending'));
--> statement-breakpoint
CREATE INDEX "images_pending_idx" ON "images" USING btree ("id") WHERE "status" = 'pending';
--> statement-breakpoint
-- The site (the `sites` entry of the settings the sign-up's host matched; ''
-- for the server-wide site) a member signed up on: the traffic report's split.
ALTER TABLE "members" ADD COLUMN "signup_site" text;
--> statement-breakpoint
-- Visits to landers and member landing pages, counted per UTC day, site,
-- lander, network and sub id ('' where there is none): aggregates only, no
-- visitor is stored.
CREATE TABLE "lander_visits" (
	"day" date NOT NULL,
	"site" text NOT NULL,
	"lander" text NOT NULL,
	"network" text NOT NULL,
	"sub1" text NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "lander_visits_pkey" PRIMARY KEY ("day", "site", "lander", "network", "sub1")
);
