DROP INDEX "likes_given_idx";--> statement-breakpoint
DROP INDEX "likes_received_idx";--> statement-breakpoint
CREATE INDEX "likes_given_idx" ON "likes" USING btree ("liker_id","created_at" DESC NULLS FIRST,"liked_id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "likes_received_idx" ON "likes" USING btree ("liked_id","is_new" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"liker_id" DESC NULLS FIRST);--> statement-breakpoint
-- Invariant from here on: a deleted account has no likes, given or received
-- (api/services/accounts.ts deleteAccount removes them), so lists and counts
-- need no join to members. Remove what earlier deletions left behind.
DELETE FROM "likes" WHERE "liker_id" IN (SELECT "id" FROM "members" WHERE "deleted_at" IS NOT NULL) OR "liked_id" IN (SELECT "id" FROM "members" WHERE "deleted_at" IS NOT NULL);
