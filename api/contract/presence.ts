// What makes a conversation feel alive: read marks, "is typing", visits to
// a profile and being online, and the member's choices about each. The spec
// is silent on all of it; docs/live.md has the rules.
import { z } from 'zod'
import { Id } from './common.ts'
import { Profile } from './profile.ts'

/** GET/PUT /api/privacy.php: what the member lets others know. */
export const PrivacySettings = z.object({
  /** Send read receipts; off: the member sees none either. */
  read_receipts: z.boolean(),
  /** Browse invisibly: opening a profile records no visit. */
  browse_invisibly: z.boolean(),
  /** Hide "online now" and "active today" from others (then they see null). */
  hide_online: z.boolean(),
  /** A visit to the member's profile sends a push. */
  visit_push: z.boolean(),
  /** First messages only from verified members (photo verification); a first message from anyone else is refused. */
  verified_only: z.boolean(),
  /** Photos in chats from others show blurred until tapped (on by default). */
  blur_photos: z.boolean(),
})
export type PrivacySettings = z.infer<typeof PrivacySettings>

/** PUT: any of them. */
export const PrivacyUpdate = z
  .object({
    read_receipts: z.boolean().optional(),
    browse_invisibly: z.boolean().optional(),
    hide_online: z.boolean().optional(),
    visit_push: z.boolean().optional(),
    verified_only: z.boolean().optional(),
    blur_photos: z.boolean().optional(),
  })
  .strict()
export type PrivacyUpdate = z.input<typeof PrivacyUpdate>

/** POST /api/typing.php: the member is typing in the conversation (ephemeral, never stored). */
export const TypingRequest = z.object({
  conversation: Id,
})
export const TypingResponse = z.object({ status: z.enum(['sent', 'quiet']) })
export type TypingResponse = z.infer<typeof TypingResponse>

/** One visit to the member's profile: who, when, and whether it came since they last looked. */
export const Visitor = z.object({
  profile: Profile,
  visited_at: z.string(),
  is_new: z.boolean(),
})
export type Visitor = z.infer<typeof Visitor>

/** GET /api/visitors.php: newest first. Opening the list marks them seen (PUT). */
export const VisitorsResponse = z.object({
  visitors: z.array(Visitor),
  new_count: z.number().int().nonnegative(),
})
export type VisitorsResponse = z.infer<typeof VisitorsResponse>
export const VisitorsSeenResponse = z.object({ new_count: z.literal(0) })
