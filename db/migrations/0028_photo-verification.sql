CREATE TABLE "verifications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "verifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"member_id" bigint NOT NULL,
	"pose" smallint NOT NULL,
	"selfie" text,
	"status" text DEFAULT 'started' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"decided_by" bigint,
	"reason" text,
	CONSTRAINT "verifications_status_check" CHECK ("status" IN ('started', 'pending', 'approved', 'refused'))
);
--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "member_privacy" ADD COLUMN "verified_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_decided_by_fkey" FOREIGN KEY ("decided_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verifications_member_idx" ON "verifications" USING btree ("member_id","id");--> statement-breakpoint
CREATE INDEX "verifications_pending_idx" ON "verifications" USING btree ("submitted_at") WHERE status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "verifications_open_key" ON "verifications" USING btree ("member_id") WHERE status IN ('started', 'pending');