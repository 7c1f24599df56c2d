ALTER TABLE "credit_adjustments" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "credit_adjustments" CASCADE;--> statement-breakpoint
DROP INDEX "messages_client_key";--> statement-breakpoint
DROP INDEX "orders_client_key";--> statement-breakpoint
-- Hand-written: drizzle-kit writes no data. The messages and orders of the
-- last 30 days get their record in member_actions (the one idempotency record
-- now, api/http/idempotency.ts), so a replay of one of them after this
-- upgrade is answered with its first answer, not applied again. Kinds and
-- answers as the code builds them (api/chats/messages.ts sendKey and its
-- claim, api/payments/orders.ts orderKey and answerOf).
INSERT INTO "member_actions" ("member_id", "client_id", "kind", "response", "created_at")
SELECT m.sender_id, m.client_id,
  'message:' || m.conversation_id || ':'
    || left(translate(encode(sha256(convert_to(m.body, 'UTF8')), 'base64'), '+/', '-_'), 22),
  jsonb_build_object(
    'message', jsonb_build_object('id', m.id, 'conversation', m.conversation_id,
      'from', m.sender_id, 'text', m.body,
      'sent_at', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'client_id', m.client_id),
    'credits', coalesce((SELECT l.balance_after FROM credit_ledger l
      WHERE l.member_id = m.sender_id AND l.reference = 'message:' || m.id LIMIT 1), 0)),
  m.created_at
FROM messages m
WHERE m.client_id IS NOT NULL AND m.created_at > now() - interval '30 days'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "member_actions" ("member_id", "client_id", "kind", "response", "created_at")
SELECT o.member_id, o.client_id,
  'order:' || o.package_id || ':' || o.method || ':' || coalesce(o.discount_code, ''),
  jsonb_build_object(
    'transaction', jsonb_build_object('id', o.public_id, 'status', o.status,
      'package', o.package_id, 'method', o.method, 'currency', o.currency,
      'amount', o.amount, 'credits', o.credits,
      'credits_added', CASE WHEN o.granted_at IS NULL THEN 0 ELSE o.credits - o.reversed_credits END,
      'created_at', to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
    'checkout_url', o.checkout_url),
  o.created_at
FROM orders o
WHERE o.created_at > now() - interval '30 days'
ON CONFLICT DO NOTHING;
