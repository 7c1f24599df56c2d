-- Single-use links mailed to staff (the console's login unlock); only the
-- SHA-256 of a token is stored. Members' unlock links are account_tokens of
-- kind 'login_unlock' (a text column: no change needed there).
CREATE TABLE "staff_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"staff_id" bigint NOT NULL REFERENCES "staff"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "staff_tokens_staff_idx" ON "staff_tokens" USING btree ("staff_id","kind");
