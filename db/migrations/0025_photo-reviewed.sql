ALTER TABLE "images" ADD COLUMN "reviewed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "images_unreviewed_idx" ON "images" USING btree ("id") WHERE NOT reviewed;--> statement-breakpoint
-- Backfill: every picture stored before this migration was approved by the
-- rules of its time and counts as reviewed (the column's default did that);
-- a picture still held by pre-moderation waits for its review.
UPDATE "images" SET "reviewed" = false WHERE "status" = 'pending';
