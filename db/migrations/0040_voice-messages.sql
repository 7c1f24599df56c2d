ALTER TABLE "messages" ADD COLUMN "voice" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "voice_type" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "voice_ms" integer;--> statement-breakpoint
CREATE INDEX "messages_voice_idx" ON "messages" USING btree ("voice") WHERE voice IS NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_voice_whole" CHECK ((voice_type IS NULL) = (voice_ms IS NULL) AND (voice IS NULL OR voice_type IS NOT NULL));