import { z } from 'zod'
import { Id } from './common.ts'

/** One signed-in device of the member (GET /api/sessions.php). */
export const SessionEntry = z.object({
  id: z.number().int(),
  /** From the User-Agent at login; null when it names none we know. */
  browser: z.string().nullable(),
  os: z.string().nullable(),
  created_at: z.string(),
  last_seen_at: z.string(),
  /** The session of the device asking. */
  current: z.boolean(),
})
export type SessionEntry = z.infer<typeof SessionEntry>

/** The member's live sessions, the current one first, then by last use. */
export const SessionsResponse = z.object({ sessions: z.array(SessionEntry) })
export type SessionsResponse = z.infer<typeof SessionsResponse>

/** DELETE /api/sessions.php: end one session (of the member's own). */
export const EndSessionRequest = z.object({ id: Id })
export type EndSessionRequest = z.infer<typeof EndSessionRequest>
