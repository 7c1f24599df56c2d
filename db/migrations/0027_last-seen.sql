ALTER TABLE "members" ADD COLUMN "public_seen_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "members_search_online_idx" ON "members" USING btree ("gender","country","public_seen_at" DESC NULLS LAST,"id" DESC NULLS FIRST,"date_of_birth","countryregion") WHERE deleted_at IS NULL;--> statement-breakpoint
-- Hand-written (drizzle declares no triggers): members.public_seen_at is kept
-- by the database itself, so every writer of a session use, of
-- last_active_at or of hide_online keeps it right, and a profile row reads
-- one column instead of two correlated subqueries (docs/live.md).
-- The value: the later of last_active_at and the member's newest session
-- use; null while they hide it.
CREATE FUNCTION member_public_seen(m bigint, active timestamptz) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN EXISTS (SELECT 1 FROM member_privacy p WHERE p.member_id = m AND p.hide_online)
    THEN NULL
    ELSE greatest(active, (SELECT max(s.last_seen_at) FROM sessions s WHERE s.member_id = m)) END
$$;--> statement-breakpoint
-- A session used (renewed at most every 5 minutes, api/http/session.ts) or
-- started. A session's end leaves the time it was last seen.
CREATE FUNCTION sessions_public_seen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE members SET public_seen_at = member_public_seen(id, last_active_at)
    WHERE id = NEW.member_id
      AND public_seen_at IS DISTINCT FROM member_public_seen(id, last_active_at);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sessions_public_seen AFTER INSERT OR UPDATE OF last_seen_at ON sessions
  FOR EACH ROW EXECUTE FUNCTION sessions_public_seen();--> statement-breakpoint
-- The page-hidden beacon (and anything else) moving last_active_at.
CREATE FUNCTION members_public_seen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.public_seen_at := member_public_seen(NEW.id, NEW.last_active_at);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER members_public_seen BEFORE INSERT OR UPDATE OF last_active_at ON members
  FOR EACH ROW EXECUTE FUNCTION members_public_seen();--> statement-breakpoint
-- Hiding it (or showing it again).
CREATE FUNCTION privacy_public_seen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE members SET public_seen_at = member_public_seen(id, last_active_at)
    WHERE id = NEW.member_id
      AND public_seen_at IS DISTINCT FROM member_public_seen(id, last_active_at);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER privacy_public_seen AFTER INSERT OR UPDATE OF hide_online ON member_privacy
  FOR EACH ROW EXECUTE FUNCTION privacy_public_seen();--> statement-breakpoint
-- Backfill.
UPDATE members SET public_seen_at = member_public_seen(id, last_active_at);
