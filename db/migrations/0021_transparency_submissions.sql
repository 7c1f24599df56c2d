CREATE TABLE "transparency_submissions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "transparency_submissions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sanction_id" bigint NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"remote_id" text,
	"submitted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transparency_submissions_status_check" CHECK ("status" IN ('queued', 'submitted', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "transparency_submissions" ADD CONSTRAINT "transparency_submissions_sanction_id_fkey" FOREIGN KEY ("sanction_id") REFERENCES "public"."sanctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "transparency_submissions_sanction_key" ON "transparency_submissions" USING btree ("sanction_id");--> statement-breakpoint
CREATE INDEX "transparency_submissions_status_idx" ON "transparency_submissions" USING btree ("status","id");