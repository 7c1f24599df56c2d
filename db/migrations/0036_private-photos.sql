CREATE TABLE "photo_unlocks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "photo_unlocks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"image_id" bigint NOT NULL,
	"viewer_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "private" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "photo_unlocks" ADD CONSTRAINT "photo_unlocks_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_unlocks" ADD CONSTRAINT "photo_unlocks_viewer_id_members_id_fk" FOREIGN KEY ("viewer_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "photo_unlocks_image_viewer_key" ON "photo_unlocks" USING btree ("image_id","viewer_id");--> statement-breakpoint
CREATE INDEX "photo_unlocks_viewer_idx" ON "photo_unlocks" USING btree ("viewer_id");--> statement-breakpoint
CREATE INDEX "images_private_file_idx" ON "images" USING btree ("filename") WHERE private;--> statement-breakpoint
CREATE INDEX "images_private_thumb_idx" ON "images" USING btree ("thumb_filename") WHERE private;