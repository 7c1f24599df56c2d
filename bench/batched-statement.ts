// The common send for several senders in one statement, written by hand
// after the API's own (api/chats/messages.ts, the session's send) for the
// benchmarks that measure what gathering sends would give
// (bench/batched-send.ts on the database alone, bench/gather-sends.ts
// through the API). Not the API's code: it names every table itself.
//
// $1 (session hashes), $5 (client ids), $16 (conversations), $17 (kinds)
// and $18 (texts) are arrays, one element a send; every other parameter is
// the single statement's, the same for the whole batch. Each row of the
// answer is the single statement's row for the send at place `n`.

/** The batched common send: $1 session hashes, $5 client ids, $16 conversations, $17 kinds, $18 texts as arrays; the rest as the single statement has them. */
export const BATCHED = `
WITH b AS (
  SELECT * FROM unnest($1::text[], $5::uuid[], $16::bigint[], $17::text[], $18::text[])
    WITH ORDINALITY AS b(hash, client_id, conversation, kind, body, n)
), sess AS (
  SELECT b.n, s.id, s.member_id, s.expires_at, s.last_seen_at FROM b JOIN sessions s ON s.token_hash = b.hash
  WHERE s.expires_at > $2::timestamptz AND s.last_seen_at > $3::timestamptz
    AND EXISTS (SELECT 1 FROM members lm WHERE lm.id = s.member_id AND lm.deleted_at IS NULL)
), sess_touch AS (
  UPDATE sessions SET last_seen_at = $2::timestamptz FROM sess
  WHERE sessions.id = sess.id AND sess.last_seen_at <= $4::timestamptz AND sessions.last_seen_at < $2::timestamptz
  RETURNING sessions.id
), me AS (
  SELECT sess.n, m.id, m.credits, m.signup_date FROM members m JOIN sess ON m.id = sess.member_id
  ORDER BY m.id FOR UPDATE OF m
), prior AS (
  SELECT me.n, EXISTS (SELECT 1 FROM member_actions a JOIN b ON b.n = me.n
    WHERE a.member_id = me.id AND a.client_id = b.client_id) AS replay FROM me
), gate AS (
  SELECT me.n, (NOT $6::boolean OR EXISTS (SELECT 1 FROM age_assurance aa WHERE aa.member_id = me.id)) AS assured FROM me
), pace AS (
  INSERT INTO rate_limits (bucket, key, window_start, count)
  SELECT v.bucket, encode(sha256(convert_to('member:' || me.id, 'UTF8')), 'hex'), v.window_start, 1
  FROM me JOIN prior USING (n) JOIN gate USING (n), LATERAL (VALUES
    ($7::text, $8::timestamptz, NOT (me.signup_date > $9::timestamptz)),
    ($10::text, $11::timestamptz, NOT (me.signup_date > $9::timestamptz)),
    ($12::text, $8::timestamptz, (me.signup_date > $9::timestamptz)),
    ($13::text, $11::timestamptz, (me.signup_date > $9::timestamptz))) AS v(bucket, window_start, counts)
  WHERE v.counts AND $14::boolean AND NOT prior.replay AND gate.assured
  ON CONFLICT (bucket, key, window_start) DO UPDATE SET count = rate_limits.count + 1
  RETURNING bucket, key, count
), pace_stale AS (
  DELETE FROM rate_limits r USING pace
  WHERE pace.count = 1 AND r.bucket = pace.bucket AND r.window_start < $15::timestamptz
), pace_over AS (
  SELECT me.n FROM me JOIN pace ON pace.key = encode(sha256(convert_to('member:' || me.id, 'UTF8')), 'hex')
  WHERE pace.count > CASE pace.bucket WHEN $21::text THEN 20 WHEN $22::text THEN 300 WHEN $23::text THEN 10 WHEN $24::text THEN 100 END
), checks AS (
  SELECT me.n, me.id AS member, c.id AS conversation,
    CASE WHEN c.member_low = me.id THEN c.member_high ELSE c.member_low END AS other,
    me.credits, c.last_message_id IS NULL AS opening
  FROM me JOIN b USING (n) JOIN conversations c ON c.id = b.conversation AND (c.member_low = me.id OR c.member_high = me.id)
), verdict AS (
  SELECT checks.*,
    EXISTS (SELECT 1 FROM members lm WHERE lm.id = checks.other AND lm.deleted_at IS NULL) AS live,
    EXISTS (SELECT 1 FROM blocks bl WHERE (bl.blocker_id = checks.member AND bl.blocked_id = checks.other)
      OR (bl.blocker_id = checks.other AND bl.blocked_id = checks.member)) AS blocked,
    checks.opening AND EXISTS (SELECT 1 FROM member_privacy mp WHERE mp.member_id = checks.other AND mp.verified_only)
      AND NOT EXISTS (SELECT 1 FROM members vm WHERE vm.id = checks.member AND vm.verified_at IS NOT NULL) AS unverified,
    checks.opening AND false AS opening_refused
  FROM checks
), fresh AS (
  SELECT verdict.n, nextval('messages_id_seq') AS id, date_trunc('milliseconds', now()) AS at FROM verdict
), claim AS (
  INSERT INTO member_actions (member_id, client_id, kind, response)
  SELECT v.member, b.client_id, b.kind, jsonb_build_object(
    'message', jsonb_build_object('id', fresh.id, 'conversation', b.conversation, 'from', v.member, 'text', b.body,
      'sent_at', to_char(fresh.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'client_id', b.client_id, 'read_at', NULL),
    'credits', v.credits - $19::integer)
  FROM verdict v JOIN fresh USING (n) JOIN b USING (n) JOIN prior USING (n) JOIN gate USING (n)
  WHERE v.live AND NOT v.blocked AND NOT v.unverified AND NOT v.opening_refused AND v.credits >= $19
    AND (NOT v.opening OR $20::boolean) AND NOT prior.replay AND gate.assured
    AND NOT EXISTS (SELECT 1 FROM pace_over WHERE pace_over.n = v.n)
  ON CONFLICT DO NOTHING
  RETURNING member_id, response
), ins AS (
  INSERT INTO messages (id, conversation_id, sender_id, body, client_id, created_at)
  OVERRIDING SYSTEM VALUE
  SELECT fresh.id, b.conversation, claim.member_id, b.body, b.client_id, fresh.at
  FROM claim JOIN me ON me.id = claim.member_id JOIN fresh USING (n) JOIN b USING (n)
  RETURNING id, sender_id, conversation_id, body, created_at
), debit AS (
  UPDATE members SET credits = credits - $19 FROM ins WHERE members.id = ins.sender_id
  RETURNING members.id, members.credits
), ledger AS (
  INSERT INTO credit_ledger (member_id, delta, reason, reference, balance_after)
  SELECT ins.sender_id, -$19::integer, 'message', 'message:' || ins.id, debit.credits
  FROM ins JOIN debit ON debit.id = ins.sender_id
), conv_time AS (
  UPDATE conversations
  SET last_message_at = ins.created_at, last_message_id = ins.id, last_message_sender = ins.sender_id,
      last_message_body = ins.body
  FROM ins WHERE conversations.id = ins.conversation_id
), unread AS (
  UPDATE conversation_members cm SET unread_count = cm.unread_count + 1, hidden_at = NULL
  FROM ins JOIN verdict v ON v.member = ins.sender_id
  WHERE cm.conversation_id = ins.conversation_id AND cm.member_id = v.other
), push AS (
  INSERT INTO jobs (kind, payload, dedupe_key)
  SELECT $25, jsonb_build_object('memberId', v.other, 'event', jsonb_build_object('kind', 'message',
      'from', jsonb_build_object('id', ins.sender_id, 'name', ''), 'conversation', ins.conversation_id,
      'text', ins.body, 'message', ins.id, 'photo', false, 'voice', false)), 'push-event:message:' || ins.id
  FROM ins JOIN verdict v ON v.member = ins.sender_id
  WHERE EXISTS (SELECT 1 FROM push_subscriptions ps WHERE ps.member_id = v.other)
  ON CONFLICT DO NOTHING
  RETURNING dedupe_key
), mail AS (
  INSERT INTO jobs (kind, payload, dedupe_key, run_at)
  SELECT $26, jsonb_build_object('memberId', v.other, 'from', ins.sender_id,
      'conversation', ins.conversation_id, 'message', ins.id, 'base', $27::text), 'message-mail:' || ins.id, now() + $28::interval
  FROM ins JOIN verdict v ON v.member = ins.sender_id
  JOIN (SELECT * FROM members WHERE deleted_at IS NULL) r ON r.id = v.other
  JOIN conversation_members cm ON cm.conversation_id = ins.conversation_id AND cm.member_id = v.other
  WHERE $27::text IS NOT NULL AND r.activated_at IS NOT NULL AND NOT r.fictional
    AND coalesce((SELECT pm.messages AND NOT coalesce(pm.visible_until > now(), false)
      AND (pm.message_mailed_at IS NULL OR pm.message_mailed_at <= now() - $29::interval)
      FROM push_members pm WHERE pm.member_id = v.other), true)
    AND (cm.mailed_at IS NULL OR cm.mailed_at < r.last_active_at)
  ON CONFLICT DO NOTHING
  RETURNING id
)
SELECT b.n, sess.member_id, sess.id AS session_id, sess.expires_at,
  EXISTS (SELECT 1 FROM sess_touch WHERE sess_touch.id = sess.id) AS touched,
  coalesce(prior.replay, false) AS replay, coalesce(gate.assured, true) AS assured,
  (SELECT coalesce(json_agg(json_build_object('bucket', pace.bucket, 'count', pace.count)), '[]'::json)
   FROM pace WHERE pace.key = encode(sha256(convert_to('member:' || sess.member_id, 'UTF8')), 'hex')) AS pace,
  v.other, v.live, v.blocked, v.opening, v.unverified, v.opening_refused, claim.response,
  (SELECT count(*) FROM ins WHERE ins.sender_id = v.member) AS stored,
  (SELECT count(*) FROM push WHERE push.dedupe_key IN (SELECT 'push-event:message:' || ins.id FROM ins WHERE ins.sender_id = v.member)) AS pushes
FROM b LEFT JOIN sess USING (n) LEFT JOIN prior USING (n) LEFT JOIN gate USING (n)
  LEFT JOIN verdict v USING (n) LEFT JOIN claim ON claim.member_id = v.member
ORDER BY b.n`

/** Where the per-send values are in the single statement's parameters: $1, $5, $16, $17, $18. */
const PER_SEND = [0, 4, 15, 16, 17]
/** The client id's place ($5). */
export const CLIENT_ID_AT = 4
/** The session hash's place ($1) and the conversation's ($16): none twice in one batch. */
export const SESSION_AT = 0
export const CONVERSATION_AT = 15

/** BATCHED's parameters for the sends whose single-statement parameters are `sends`: the first's shared ones, arrays of the per-send ones. */
export function batchParameters(sends: readonly unknown[][]): unknown[] {
  const values = [...sends[0]!]
  for (const at of PER_SEND) values[at] = sends.map((send) => send[at])
  return values
}
