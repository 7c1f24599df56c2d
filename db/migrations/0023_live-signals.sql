CREATE TABLE "member_privacy" (
	"member_id" bigint PRIMARY KEY NOT NULL,
	"read_receipts" boolean DEFAULT true NOT NULL,
	"browse_invisibly" boolean DEFAULT false NOT NULL,
	"hide_online" boolean DEFAULT false NOT NULL,
	"visit_push" boolean DEFAULT false NOT NULL,
	"visitors_seen_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "profile_visits" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "profile_visits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"visitor_id" bigint NOT NULL,
	"visited_id" bigint NOT NULL,
	"day" date DEFAULT (now() AT TIME ZONE 'UTC')::date NOT NULL,
	"visited_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "read_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "member_privacy" ADD CONSTRAINT "member_privacy_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_visits" ADD CONSTRAINT "profile_visits_visitor_id_fkey" FOREIGN KEY ("visitor_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_visits" ADD CONSTRAINT "profile_visits_visited_id_fkey" FOREIGN KEY ("visited_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "profile_visits_day_key" ON "profile_visits" USING btree ("visitor_id","visited_id","day");--> statement-breakpoint
CREATE INDEX "profile_visits_visited_idx" ON "profile_visits" USING btree ("visited_id","visited_at");--> statement-breakpoint
CREATE INDEX "messages_unread_idx" ON "messages" USING btree ("conversation_id") WHERE read_at IS NULL;