-- Buying credits: packages and their prices per currency (seeded defaults an
-- operator edits), orders keyed on the provider's payment id, discount codes,
-- the provider customer of a member, and the local provider's payments.
CREATE TABLE "credit_packages" (
	"id" text PRIMARY KEY,
	"credits" integer NOT NULL CHECK ("credits" > 0),
	"bonus" integer DEFAULT 0 NOT NULL CHECK ("bonus" >= 0),
	"position" integer DEFAULT 0 NOT NULL,
	"featured" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_package_prices" (
	"package_id" text NOT NULL REFERENCES "credit_packages"("id") ON DELETE CASCADE,
	"currency" text NOT NULL,
	"amount" integer NOT NULL CHECK ("amount" > 0),
	PRIMARY KEY ("package_id", "currency")
);
--> statement-breakpoint
INSERT INTO "credit_packages" ("id", "credits", "bonus", "position", "featured") VALUES
	('starter', 100, 0, 1, false),
	('popular', 250, 25, 2, true),
	('value', 600, 100, 3, false),
	('best', 1500, 400, 4, false);
--> statement-breakpoint
INSERT INTO "credit_package_prices" ("package_id", "currency", "amount") VALUES
	('starter', 'EUR', 995),
	('starter', 'GBP', 849),
	('starter', 'PLN', 4499),
	('starter', 'USD', 1099),
	('starter', 'CAD', 1499),
	('starter', 'AUD', 1699),
	('starter', 'NZD', 1799),
	('popular', 'EUR', 1995),
	('popular', 'GBP', 1699),
	('popular', 'PLN', 8999),
	('popular', 'USD', 2199),
	('popular', 'CAD', 2999),
	('popular', 'AUD', 3399),
	('popular', 'NZD', 3599),
	('value', 'EUR', 3995),
	('value', 'GBP', 3499),
	('value', 'PLN', 17999),
	('value', 'USD', 4399),
	('value', 'CAD', 5999),
	('value', 'AUD', 6699),
	('value', 'NZD', 7199),
	('best', 'EUR', 7995),
	('best', 'GBP', 6999),
	('best', 'PLN', 34999),
	('best', 'USD', 8799),
	('best', 'CAD', 11999),
	('best', 'AUD', 12999),
	('best', 'NZD', 13999);
--> statement-breakpoint
CREATE TABLE "discount_codes" (
	"code" text PRIMARY KEY,
	"kind" text NOT NULL CHECK ("kind" IN ('normal', 'welcome', 'time_bonus')),
	"bonus_percent" integer CHECK ("bonus_percent" BETWEEN 1 AND 200),
	"percent_off" integer CHECK ("percent_off" BETWEEN 1 AND 90),
	"ends_at" timestamp with time zone,
	"max_uses" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"member_id" bigint REFERENCES "members"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CHECK (("bonus_percent" IS NULL) <> ("percent_off" IS NULL)),
	CHECK ("max_uses" IS NULL OR "uses" <= "max_uses")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "discount_codes_welcome_key" ON "discount_codes" USING btree ("member_id") WHERE kind = 'welcome';
--> statement-breakpoint
CREATE UNIQUE INDEX "discount_codes_personal_key" ON "discount_codes" USING btree ("member_id") WHERE kind = 'normal' AND member_id IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"public_id" text NOT NULL,
	"member_id" bigint NOT NULL REFERENCES "members"("id") ON DELETE CASCADE,
	"client_id" uuid NOT NULL,
	"package_id" text NOT NULL,
	"method" text NOT NULL,
	"currency" text NOT NULL,
	"amount" integer NOT NULL CHECK ("amount" > 0),
	"credits" integer NOT NULL CHECK ("credits" > 0),
	"discount_code" text,
	"status" text DEFAULT 'pending' NOT NULL CHECK ("status" IN ('pending', 'paid', 'failed', 'canceled', 'expired', 'refunded', 'charged_back')),
	"provider" text NOT NULL,
	"payment_id" text,
	"checkout_url" text,
	"sequence_type" text DEFAULT 'oneoff' NOT NULL,
	"granted_at" timestamp with time zone,
	"reversed_credits" integer DEFAULT 0 NOT NULL CHECK ("reversed_credits" >= 0 AND "reversed_credits" <= "credits"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "orders_public_id_key" ON "orders" USING btree ("public_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "orders_client_key" ON "orders" USING btree ("member_id", "client_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "orders_payment_id_key" ON "orders" USING btree ("payment_id");
--> statement-breakpoint
CREATE INDEX "orders_member_idx" ON "orders" USING btree ("member_id", "id");
--> statement-breakpoint
CREATE INDEX "orders_open_idx" ON "orders" USING btree ("created_at") WHERE status = 'pending';
--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_purchase_key" ON "credit_ledger" USING btree ("reference") WHERE reason = 'purchase';
--> statement-breakpoint
CREATE TABLE "payment_customers" (
	"member_id" bigint NOT NULL REFERENCES "members"("id") ON DELETE CASCADE,
	"provider" text NOT NULL,
	"customer_id" text NOT NULL,
	PRIMARY KEY ("member_id", "provider")
);
--> statement-breakpoint
CREATE TABLE "local_payments" (
	"id" text PRIMARY KEY,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"amount" integer NOT NULL,
	"description" text NOT NULL,
	"method" text,
	"redirect_url" text,
	"webhook_url" text,
	"customer_id" text,
	"sequence_type" text DEFAULT 'oneoff' NOT NULL,
	"order_id" text,
	"refunded" integer DEFAULT 0 NOT NULL,
	"charged_back" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
