ALTER TABLE "first_messages" ADD COLUMN "photo" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "photo" text;--> statement-breakpoint
ALTER TABLE "member_privacy" ADD COLUMN "blur_photos" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "messages_photo_idx" ON "messages" USING btree ("photo") WHERE photo IS NOT NULL;--> statement-breakpoint
CREATE INDEX "reports_message_idx" ON "reports" USING btree ("message_id") WHERE message_id IS NOT NULL;