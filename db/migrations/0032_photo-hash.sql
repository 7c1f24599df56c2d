ALTER TABLE "images" ADD COLUMN "phash" bigint;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "match_image_id" bigint;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "match_member_id" bigint;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_match_image_id_images_id_fk" FOREIGN KEY ("match_image_id") REFERENCES "public"."images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_match_member_id_members_id_fk" FOREIGN KEY ("match_member_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;