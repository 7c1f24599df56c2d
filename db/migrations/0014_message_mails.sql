-- Mails about new messages (api/chats/message-mail.ts): when the member was
-- last mailed about each conversation (one mail per conversation until they
-- read it or come back to the site) and about any conversation (at most one
-- such mail per member every few hours).
ALTER TABLE "conversation_members" ADD COLUMN "mailed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "push_members" ADD COLUMN "message_mailed_at" timestamp with time zone;
