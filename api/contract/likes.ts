import { z } from 'zod'
import { MemberId } from './common.ts'
import { Profile } from './profile.ts'

/**
 * Every member action that changes data carries a client-generated UUID
 * (docs/architecture.md, "The API"): the server applies each id at most once and
 * answers a replay with the first answer.
 */
export const ClientId = z.uuid()

/**
 * POST and DELETE /api/likes.php body: spec §7 `profile`. The action id is
 * optional, here as `client_id` or as the standard `Idempotency-Key` header
 * (LIKE_IDEMPOTENCY_HEADER): with one, a replay answers the first answer and
 * a reused id for another action is 422; without, the like still applies at
 * most once, since liking a liked member (or unliking one not liked) changes
 * nothing.
 */
export const LikeRequest = z.object({
  profile: MemberId,
  client_id: ClientId.optional(),
})
export type LikeRequest = z.infer<typeof LikeRequest>

/** The request header that may carry a like's action id instead of `client_id` (a UUID too). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'

export const LikeResponse = z.object({ profile: z.number().int(), liked: z.boolean() })
export type LikeResponse = z.infer<typeof LikeResponse>

/** PUT /api/likes.php: the member opened the like `profile` gave them (clears like_new). */
export const LikeSeenRequest = z.object({ profile: MemberId })
export type LikeSeenRequest = z.infer<typeof LikeSeenRequest>
export const LikeSeenResponse = z.object({ profile: z.number().int(), like_new: z.literal(false) })
export type LikeSeenResponse = z.infer<typeof LikeSeenResponse>

/**
 * Likes lists are paged: a member may have thousands, and the page a person
 * looks at shows a few dozen. Page 1 (no query) is what polling fetches.
 */
export const LIKES_PAGE_SIZE = 48

/** GET /api/likes.php query: without `type`, page 1 of both lists. */
export const LikesQuery = z.object({
  type: z.enum(['given', 'received']).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
})
export type LikesQuery = z.input<typeof LikesQuery>

/**
 * Spec §3 likes response: profiles the member liked (newest first) and who
 * liked them (new first, spec §4), one page of each; `liked_ids` holds every
 * member the member liked, so a like button anywhere shows the right state.
 */
export const LikesResponse = z.object({
  profiles: z.array(Profile),
  liked_ids: z.array(z.number().int()),
  counts: z.object({
    given: z.number().int(),
    received: z.number().int(),
    /** Feeds the install badge (spec §4: unread messages plus new likes). */
    received_new: z.number().int(),
  }),
  paging: z.object({ page: z.number().int(), pp: z.number().int() }),
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
