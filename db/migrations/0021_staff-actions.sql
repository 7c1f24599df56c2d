CREATE TABLE "staff_actions" (
	"staff_id" bigint NOT NULL,
	"client_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_actions_staff_id_client_id_pk" PRIMARY KEY("staff_id","client_id")
);
--> statement-breakpoint
ALTER TABLE "staff_actions" ADD CONSTRAINT "staff_actions_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;