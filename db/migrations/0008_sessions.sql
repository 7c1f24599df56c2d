-- Sessions the member can see and end (the list on /profile): a public id,
-- the last use (idle expiry) and the browser that logged in.
ALTER TABLE "sessions" ADD COLUMN "id" bigint GENERATED ALWAYS AS IDENTITY;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_id_unique" UNIQUE ("id");--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text DEFAULT '' NOT NULL;
