-- The newest message of each conversation on the conversation row, written by
-- the send in the same statement, so the chats list needs no probe of
-- messages per conversation.
ALTER TABLE "conversations" ADD COLUMN "last_message_id" bigint;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "last_message_sender" bigint;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "last_message_body" text;
--> statement-breakpoint
UPDATE "conversations" c
SET "last_message_id" = m."id", "last_message_sender" = m."sender_id", "last_message_body" = m."body"
FROM (
  SELECT DISTINCT ON ("conversation_id") "conversation_id", "id", "sender_id", "body"
  FROM "messages" ORDER BY "conversation_id", "id" DESC
) m
WHERE m."conversation_id" = c."id";
