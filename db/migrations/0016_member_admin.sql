-- Staff credit adjustments and refunds, each keyed on the console's
-- client-generated id: a double click or a retried request finds the row and
-- changes nothing again (the unique key is what makes it race-safe).
CREATE TABLE "credit_adjustments" (
	"client_id" uuid PRIMARY KEY,
	"member_id" bigint NOT NULL REFERENCES "members"("id") ON DELETE CASCADE,
	"staff_id" bigint NOT NULL REFERENCES "staff"("id"),
	"delta" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "credit_adjustments_member_idx" ON "credit_adjustments" USING btree ("member_id");
--> statement-breakpoint
CREATE TABLE "staff_refunds" (
	"client_id" uuid PRIMARY KEY,
	"order_id" bigint NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
	"staff_id" bigint NOT NULL REFERENCES "staff"("id"),
	"amount" integer NOT NULL CHECK ("amount" > 0),
	"provider_refund_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "staff_refunds_order_idx" ON "staff_refunds" USING btree ("order_id");
