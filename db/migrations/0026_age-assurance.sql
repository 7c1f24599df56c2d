CREATE TABLE "age_assurance" (
	"member_id" bigint PRIMARY KEY NOT NULL,
	"result" text NOT NULL,
	"provider" text NOT NULL,
	"assured_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "age_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"member_id" bigint NOT NULL,
	"provider" text NOT NULL,
	"nonce" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "age_assurance" ADD CONSTRAINT "age_assurance_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "age_requests" ADD CONSTRAINT "age_requests_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "age_requests_member_idx" ON "age_requests" USING btree ("member_id","created_at");