import { z } from 'zod'
import { MemberId } from './common.ts'
import { Profile } from './profile.ts'

/**
 * Every member action that changes data carries a client-generated UUID
 * (ARCHITECTURE "Data and sync"): the server applies each id at most once and
 * answers a replay with the first answer.
 */
export const ClientId = z.uuid()

/** POST and DELETE /api/likes.php body (spec §7 `profile`, plus the action id). */
export const LikeRequest = z.object({
  profile: MemberId,
  client_id: ClientId,
})
export type LikeRequest = z.infer<typeof LikeRequest>

export const LikeResponse = z.object({ profile: z.number().int(), liked: z.boolean() })
export type LikeResponse = z.infer<typeof LikeResponse>

/** PUT /api/likes.php: the member opened the like `profile` gave them (clears like_new). */
export const LikeSeenRequest = z.object({ profile: MemberId })
export type LikeSeenRequest = z.infer<typeof LikeSeenRequest>
export const LikeSeenResponse = z.object({ profile: z.number().int(), like_new: z.literal(false) })
export type LikeSeenResponse = z.infer<typeof LikeSeenResponse>

/** Spec §3 likes response: profiles the member liked; who liked them, new first. */
export const LikesResponse = z.object({
  profiles: z.array(Profile),
  liked_by: z.array(
    z.object({
      id: z.number().int(),
      like_new: z.boolean(),
      created_at: z.string(),
      profile: Profile,
    }),
  ),
})
export type LikesResponse = z.infer<typeof LikesResponse>
