-- Messages paid with credits: the balance, its ledger, idempotent sends,
-- blocks and reports.
ALTER TABLE "members" ADD COLUMN "credits" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_credits_not_negative" CHECK ("credits" >= 0);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "client_id" uuid;
--> statement-breakpoint
CREATE UNIQUE INDEX "messages_client_key" ON "messages" USING btree ("sender_id", "client_id") WHERE client_id IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "credit_ledger" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"member_id" bigint NOT NULL REFERENCES "members"("id") ON DELETE CASCADE,
	"delta" integer NOT NULL,
	"reason" text NOT NULL CHECK ("reason" IN ('message', 'purchase', 'bonus', 'refund', 'adjustment')),
	"reference" text,
	"balance_after" integer NOT NULL CHECK ("balance_after" >= 0),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "credit_ledger_member_idx" ON "credit_ledger" USING btree ("member_id", "id");
--> statement-breakpoint
CREATE TABLE "blocks" (
	"blocker_id" bigint NOT NULL REFERENCES "members"("id") ON DELETE CASCADE,
	"blocked_id" bigint NOT NULL REFERENCES "members"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("blocker_id", "blocked_id")
);
--> statement-breakpoint
CREATE INDEX "blocks_blocked_idx" ON "blocks" USING btree ("blocked_id");
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"reporter_id" bigint NOT NULL REFERENCES "members"("id") ON DELETE CASCADE,
	"reported_id" bigint NOT NULL REFERENCES "members"("id") ON DELETE CASCADE,
	"message_id" bigint REFERENCES "messages"("id") ON DELETE SET NULL,
	"reason" text NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "reports_status_idx" ON "reports" USING btree ("status", "id");
