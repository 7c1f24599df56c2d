DROP INDEX "members_search_order_idx";--> statement-breakpoint
DROP INDEX "members_search_region_order_idx";--> statement-breakpoint
DROP INDEX "members_search_age_idx";--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "public_active_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Hand-written (drizzle declares no triggers): members.public_active_at is
-- what the search orders by for "recent activity" (docs/search.md): the
-- member's last_active_at, or their sign-up time while they hide when they
-- were online, so neither the page-hidden beacon nor anything else they do
-- moves a hiding member in the order. Kept by the database, like
-- public_seen_at (0027_last-seen.sql), so every writer keeps it right.
CREATE FUNCTION member_public_active(m bigint, active timestamptz, signup timestamptz) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN EXISTS (SELECT 1 FROM member_privacy p WHERE p.member_id = m AND p.hide_online)
    THEN signup ELSE active END
$$;--> statement-breakpoint
-- The beacon (and anything else) moving last_active_at; a new member.
CREATE FUNCTION members_public_active() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.public_active_at := member_public_active(NEW.id, NEW.last_active_at, NEW.signup_date);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER members_public_active BEFORE INSERT OR UPDATE OF last_active_at, signup_date ON members
  FOR EACH ROW EXECUTE FUNCTION members_public_active();--> statement-breakpoint
-- Hiding when they were online (or showing it again).
CREATE FUNCTION privacy_public_active() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE members SET public_active_at = member_public_active(id, last_active_at, signup_date)
    WHERE id = NEW.member_id
      AND public_active_at IS DISTINCT FROM member_public_active(id, last_active_at, signup_date);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER privacy_public_active AFTER INSERT OR UPDATE OF hide_online ON member_privacy
  FOR EACH ROW EXECUTE FUNCTION privacy_public_active();--> statement-breakpoint
-- Backfill, before the indexes are built (once, not entry by entry).
UPDATE members SET public_active_at = member_public_active(id, last_active_at, signup_date);--> statement-breakpoint
CREATE INDEX "members_search_order_idx" ON "members" USING btree ("gender","country","public_active_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"date_of_birth") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "members_search_region_order_idx" ON "members" USING btree ("gender","country","countryregion","public_active_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"date_of_birth") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "members_search_age_idx" ON "members" USING btree ("gender","country","date_of_birth","public_active_at","id") WHERE deleted_at IS NULL;
