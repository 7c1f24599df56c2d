CREATE TABLE "profile_text_reviews" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "profile_text_reviews_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"member_id" bigint NOT NULL,
	"texts" jsonb NOT NULL,
	"signals" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" bigint,
	"decision" text
);
--> statement-breakpoint
ALTER TABLE "profile_text_reviews" ADD CONSTRAINT "profile_text_reviews_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_text_reviews" ADD CONSTRAINT "profile_text_reviews_decided_by_fkey" FOREIGN KEY ("decided_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "profile_text_reviews_open_key" ON "profile_text_reviews" USING btree ("member_id") WHERE decided_at IS NULL;--> statement-breakpoint
CREATE INDEX "profile_text_reviews_open_idx" ON "profile_text_reviews" USING btree ("id") WHERE decided_at IS NULL;