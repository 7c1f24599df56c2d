CREATE TABLE "first_messages" (
	"conversation_id" bigint PRIMARY KEY NOT NULL,
	"member_id" bigint NOT NULL,
	"recipient_id" bigint NOT NULL,
	"text_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'delivered' NOT NULL,
	"signals" text DEFAULT '' NOT NULL,
	"body" text,
	"client_id" uuid,
	"message_id" bigint,
	"cost" integer,
	"decided_at" timestamp with time zone,
	"decided_by" bigint
);
--> statement-breakpoint
ALTER TABLE "first_messages" ADD CONSTRAINT "first_messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "first_messages" ADD CONSTRAINT "first_messages_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "first_messages" ADD CONSTRAINT "first_messages_recipient_id_members_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "first_messages_member_idx" ON "first_messages" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE INDEX "first_messages_held_idx" ON "first_messages" USING btree ("status","created_at");