// The push-event job row as SQL, for a hot path that enqueues the push of
// its event in its own single statement (a sent message, a recorded visit):
// the job is named, keyed and shaped here, from the payload schema the job's
// handler parses (events.ts PushEventJob), not by each caller. The fields
// are SQL of the caller's statement; the sender's name is left empty (the
// handler reads the stored one). A test (event-job-sql.test.ts) runs the SQL
// and checks that its keys are the schema's.
import { SQL, sql } from 'drizzle-orm'
import { enqueueSelectSql } from '../jobs/enqueue-sql.ts'
import { PUSH_EVENT_JOB, type PushEventJob } from './events.ts'

/** A push event's fields as SQL expressions of the caller's statement (ids as bigint). */
export type PushEventSql =
  | {
      kind: 'message'
      from: SQL
      conversation: SQL
      text: SQL
      message: SQL
      photo?: SQL
      voice?: SQL
    }
  | { kind: 'like'; from: SQL }
  | { kind: 'visit'; from: SQL; visit: SQL }

/** Every field of `T` as SQL, nested objects as objects (optional fields required). */
type SqlOf<T> = T extends object ? { [K in keyof T]-?: SqlOf<T[K]> } : SQL
type Leaves = SQL | { [key: string]: Leaves }

/** A string literal of our own (a key, a kind): never a caller's value. */
const text = (s: string) => sql.raw(`'${s.replace(/'/g, "''")}'`)

/** An object of SQL leaves as one jsonb_build_object expression, key by key. */
function jsonbOf(value: Leaves): SQL {
  if (value instanceof SQL) return value
  const pairs = Object.entries(value).map(([k, v]) => sql`${text(k)}, ${jsonbOf(v)}`)
  return sql`jsonb_build_object(${sql.join(pairs, sql`, `)})`
}

/** The job's payload (PushEventJob) for an event to `memberId`, as a jsonb expression. */
export function pushEventPayloadSql(memberId: SQL, event: PushEventSql): SQL {
  const from = { id: event.from, name: text('') }
  const shaped: SqlOf<PushEventJob>['event'] =
    event.kind === 'message'
      ? {
          kind: text('message'),
          from,
          conversation: event.conversation,
          text: event.text,
          message: event.message,
          photo: event.photo ?? sql`false`,
          voice: event.voice ?? sql`false`,
        }
      : event.kind === 'visit'
        ? { kind: text('visit'), from, visit: event.visit }
        : { kind: text('like'), from }
  const job: SqlOf<PushEventJob> = { memberId, event: shaped }
  return jsonbOf(job)
}

/** One job per event: a message, a visit, or a like of one member by another. */
const dedupeKeyOf = (memberId: SQL, event: PushEventSql): SQL =>
  event.kind === 'message'
    ? sql`'push-event:message:' || ${event.message}`
    : event.kind === 'visit'
      ? sql`'push-event:visit:' || ${event.visit}`
      : sql`'push-event:like:' || ${event.from} || ':' || ${memberId}`

/**
 * The INSERT of the push-event job of `event` to `memberId`, one per row of
 * `from` (a FROM list of the caller's statement), only when the member has a
 * device to push to and `where` (the caller's own condition) holds; for a
 * common table expression: `push AS (${pushEventJobSql(...)})` returns the
 * ids of its jobs. Everything else (a block, a deleted member, a visible
 * page, the member's choices) the job's handler decides when it runs.
 */
export function pushEventJobSql(job: {
  memberId: SQL
  event: PushEventSql
  from: SQL
  where?: SQL
}): SQL {
  const hasDevice = sql`EXISTS (SELECT 1 FROM push_subscriptions ps WHERE ps.member_id = ${job.memberId})`
  return enqueueSelectSql({
    kind: PUSH_EVENT_JOB,
    payload: pushEventPayloadSql(job.memberId, job.event),
    key: dedupeKeyOf(job.memberId, job.event),
    from: job.from,
    where: job.where ? sql`${job.where}\n        AND ${hasDevice}` : hasDevice,
  })
}
