CREATE TABLE "gifts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gifts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"site" text DEFAULT '' NOT NULL,
	"slug" text NOT NULL,
	"icon" text NOT NULL,
	"name" text,
	"credits" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "gifts_credits_check" CHECK ("credits" >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "gifts_site_slug_key" ON "gifts" USING btree ("site","slug");--> statement-breakpoint
-- The built-in catalogue for every site (named in the member's language by the app).
INSERT INTO "gifts" ("site", "slug", "icon", "credits", "position") VALUES
  ('', 'rose', '🌹', 15, 1),
  ('', 'coffee', '☕', 20, 2),
  ('', 'teddy', '🧸', 40, 3),
  ('', 'champagne', '🍾', 60, 4);
