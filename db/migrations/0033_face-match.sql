CREATE TABLE "face_descriptors" (
	"member_id" bigint PRIMARY KEY NOT NULL,
	"descriptor" real[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "turn" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "face_consent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "face_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "face_count" smallint;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "face_yaw" real;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "face_pose_ok" boolean;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "face_similarity" real;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "face_descriptor" real[];--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "face_photos" smallint;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "face_auto" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "face_same_as" bigint;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "face_same_score" real;--> statement-breakpoint
ALTER TABLE "face_descriptors" ADD CONSTRAINT "face_descriptors_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;