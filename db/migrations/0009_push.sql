-- Push: a subscription belongs to the session that last posted it (logout
-- and expiry end it with the session), and per member what notifies and
-- whether the site is open and visible somewhere (then the live stream
-- tells, not a push).
ALTER TABLE "push_subscriptions" ADD COLUMN "session_hash" text REFERENCES "sessions"("token_hash") ON DELETE CASCADE;
--> statement-breakpoint
CREATE INDEX "push_subscriptions_session_idx" ON "push_subscriptions" USING btree ("session_hash");
--> statement-breakpoint
CREATE TABLE "push_members" (
	"member_id" bigint PRIMARY KEY NOT NULL REFERENCES "members"("id") ON DELETE CASCADE,
	"messages" boolean DEFAULT true NOT NULL,
	"likes" boolean DEFAULT true NOT NULL,
	"visible_until" timestamp with time zone
);
