import { z } from 'zod'
import { MemberId } from './common.ts'
import { Profile } from './profile.ts'

/** GET /api/profile.php?id= (optional auth; spec §2 profile page). */
export const ProfileQuery = z.object({ id: MemberId })

/** A profile as its page shows it; `liked`/`liked_me` only for a logged-in viewer. */
export const ProfileResponse = z.object({
  profile: Profile.extend({
    profile_fields: z.record(z.string(), z.string()),
    notes: z.record(z.string(), z.string()),
    countryregion_name: z.string().nullable(),
    country_name: z.string(),
    /**
     * The member's private pictures the viewer has not unlocked: a locked
     * tile each, unlocked for settings.private_photo_credits. Empty for a
     * guest (guests never learn of private pictures).
     */
    locked_photos: z.array(z.object({ id: z.number().int() })).optional(),
  }),
  liked: z.boolean().nullable(),
  liked_me: z.boolean().nullable(),
})
export type ProfileResponse = z.infer<typeof ProfileResponse>

/** GET /api/chat.php?profile= → the conversation with that member (made on first use). */
export const ChatStartQuery = z.object({ profile: MemberId })
export const ChatStartResponse = z.object({ id: z.number().int() })
export type ChatStartResponse = z.infer<typeof ChatStartResponse>
