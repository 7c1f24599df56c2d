import { z } from 'zod'

/** Every error the API sends has this shape; `field` names the bad input. */
export const ApiError = z.object({
  error: z.string(),
  message: z.string().optional(),
  field: z.string().optional(),
})
export type ApiError = z.infer<typeof ApiError>

/** A member id in a path or query: a positive integer. */
export const MemberId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER)

export const Image = z.object({
  id: z.number().int(),
  thumb_filename: z.string(),
  /**
   * Awaiting a moderator (photo pre-moderation): only ever in the owner's own
   * answers; other members' answers never hold a pending picture.
   */
  pending: z.literal(true).optional(),
})
export type Image = z.infer<typeof Image>

export const Gender = z.enum(['male', 'female'])
export type Gender = z.infer<typeof Gender>

export const Locale = z.enum(['en', 'nl', 'de', 'it', 'fr', 'es', 'pl'])
export type Locale = z.infer<typeof Locale>

/**
 * A whole number in a query string: decimal digits only. `z.coerce.number()`
 * alone would take "0x10" as 16 and "1e3" as 1000; a page number written so
 * is a malformed request, refused with 400 naming the parameter.
 */
export const queryInt = (min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^[0-9]{1,9}$/, 'a whole number in decimal digits')])
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
