DROP INDEX "members_search_gender_country_idx";--> statement-breakpoint
DROP INDEX "members_search_country_idx";--> statement-breakpoint
DROP INDEX "members_search_region_idx";--> statement-breakpoint
CREATE INDEX "members_search_order_idx" ON "members" USING btree ("gender","country","last_active_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"date_of_birth") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "members_search_region_order_idx" ON "members" USING btree ("gender","country","countryregion","last_active_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"date_of_birth") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "members_search_age_idx" ON "members" USING btree ("gender","country","date_of_birth","last_active_at","id") WHERE deleted_at IS NULL;