import { z } from 'zod'

/** A gift's id in a catalogue: lower-case letters, digits, - and _. */
export const GiftSlug = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'a gift id')

/** One gift as a member sees it in the picker (GET /api/gifts.php). */
export const Gift = z.object({
  slug: GiftSlug,
  /** An emoji (or a short symbol) the bubble shows. */
  icon: z.string(),
  /** The operator's name, or null: a built-in gift, named in the member's language by the app. */
  name: z.string().nullable(),
  credits: z.number().int(),
})
export type Gift = z.infer<typeof Gift>
export const GiftsResponse = z.object({ gifts: z.array(Gift) })
export type GiftsResponse = z.infer<typeof GiftsResponse>

/** The built-in gifts the app names in seven languages (db/migrations/0035_gift-catalogue.sql). */
export const BUILT_IN_GIFTS = ['rose', 'coffee', 'teddy', 'champagne'] as const
