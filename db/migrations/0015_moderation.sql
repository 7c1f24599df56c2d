-- Moderation: the decision on each report and complaint (time to action is
-- decided_at - created_at), the sanctions on members with their statement of
-- reasons, and appeals of them (decided by a different moderator).
ALTER TABLE "reports" ADD COLUMN "decided_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "decided_by" bigint REFERENCES "staff"("id");
--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "decision" text;
--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "action_seconds" integer;
--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "decided_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "decided_by" bigint REFERENCES "staff"("id");
--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "decision" text;
--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "action_seconds" integer;
--> statement-breakpoint
CREATE TABLE "sanctions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"member_id" bigint NOT NULL REFERENCES "members"("id") ON DELETE CASCADE,
	"kind" text NOT NULL CHECK ("kind" IN ('warn', 'suspend', 'ban', 'remove_photo', 'remove_text')),
	"rule" text NOT NULL,
	"reason" text NOT NULL,
	"item_type" text,
	"item_id" bigint,
	"starts_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone,
	"staff_id" bigint NOT NULL REFERENCES "staff"("id"),
	"appeal_token_hash" text NOT NULL,
	"lifted_at" timestamp with time zone,
	"lifted_by" bigint REFERENCES "staff"("id")
);
--> statement-breakpoint
CREATE INDEX "sanctions_member_idx" ON "sanctions" USING btree ("member_id", "id");
--> statement-breakpoint
CREATE UNIQUE INDEX "sanctions_appeal_token_key" ON "sanctions" USING btree ("appeal_token_hash");
--> statement-breakpoint
CREATE TABLE "appeals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"sanction_id" bigint NOT NULL REFERENCES "sanctions"("id") ON DELETE CASCADE,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" bigint REFERENCES "staff"("id"),
	"outcome" text CHECK ("outcome" IN ('upheld', 'lifted')),
	"reason" text,
	"action_seconds" integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX "appeals_open_key" ON "appeals" USING btree ("sanction_id") WHERE "decided_at" IS NULL;
