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
CREATE TABLE "withdrawal_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "withdrawals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" bigint NOT NULL,
	"member_id" bigint NOT NULL,
	"via" text NOT NULL,
	"unused_credits" integer NOT NULL,
	"refund_amount" integer NOT NULL,
	"refund_client_id" uuid,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawals_via_check" CHECK ("via" IN ('member', 'link')),
	CONSTRAINT "withdrawals_refund_amount_check" CHECK ("refund_amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "staff_refunds" ALTER COLUMN "staff_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "withdrawal_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transparency_submissions" ADD CONSTRAINT "transparency_submissions_sanction_id_fkey" FOREIGN KEY ("sanction_id") REFERENCES "public"."sanctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_links" ADD CONSTRAINT "withdrawal_links_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "transparency_submissions_sanction_key" ON "transparency_submissions" USING btree ("sanction_id");--> statement-breakpoint
CREATE INDEX "transparency_submissions_status_idx" ON "transparency_submissions" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "withdrawal_links_order_idx" ON "withdrawal_links" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_order_key" ON "withdrawals" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "withdrawals_member_idx" ON "withdrawals" USING btree ("member_id");