// Push events: what a hot path (a sent message) enqueues in its own statement
// instead of building the push there. The job expands into the push job of
// api/push/job.ts with the payload in the recipient's language and the badge
// as it is when the job runs; notifyMember drops it for a blocked or deleted
// member, or one without a device, as it does for any event.
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import type { JobHandlers } from '../jobs/queue.ts'
import { enqueuePush } from './notify.ts'
import type { BadgeOf } from './payload.ts'

/** The job kind; its rows are built in SQL by event-job-sql.ts and read here. */
export const PUSH_EVENT_JOB = 'push-event'

const Member = z.object({ id: z.number().int(), name: z.string() })
/** A push-event job's payload: what event-job-sql.ts builds in SQL (a test checks the keys). */
export const PushEventJob = z.object({
  memberId: z.number().int(),
  event: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('message'),
      from: Member,
      conversation: z.number().int(),
      text: z.string(),
      message: z.number().int().optional(),
      /** A photo message: the push says "sent you a photo" (the text is its caption). */
      photo: z.boolean().optional(),
      /** A voice message: the push says "sent you a voice message". */
      voice: z.boolean().optional(),
    }),
    z.object({ kind: z.literal('like'), from: Member }),
    z.object({ kind: z.literal('visit'), from: Member, visit: z.number().int() }),
  ]),
})
export type PushEventJob = z.infer<typeof PushEventJob>

export function pushEventJobHandlers(db: Db, badgeOf: BadgeOf): JobHandlers {
  return {
    [PUSH_EVENT_JOB]: async (payload, job) => {
      const { memberId, event } = PushEventJob.parse(payload)
      // The event's own time bounds the push's life (TTL), not this job's.
      await enqueuePush(db, memberId, event, {
        badgeOf,
        now: () => job.createdAt.getTime(),
      })
    },
  }
}
