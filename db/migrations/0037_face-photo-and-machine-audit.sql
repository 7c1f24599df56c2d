ALTER TABLE "audit_log" ALTER COLUMN "staff_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "face_match_member_id" bigint;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "face_match_score" real;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_face_match_member_id_members_id_fk" FOREIGN KEY ("face_match_member_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;