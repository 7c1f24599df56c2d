import { z } from 'zod'

/** Every error the API sends has this shape; `field` names the bad input. */
export const ApiError = z.object({
  error: z.string(),
  message: z.string().optional(),
  field: z.string().optional(),
})
export type ApiError = z.infer<typeof ApiError>

/** What an id that is not one gets told (400, with `field` naming it). */
export const ID_RULE = 'must be a positive whole number'

/**
 * Every id the API takes, in a query string or a JSON body: the one schema
 * all routes use (docs/security.md). A positive safe integer, written as a
 * JSON number or as ASCII digits (a query string carries nothing else; in a
 * body the digits name the same id, so both are taken). Nothing is coerced:
 * `true`, `[3]`, `"0x5"`, `"1e1"`, `"٣"`, `"-1"`, `""`, 0, 1.5 and 2^53 are
 * refused, where `z.coerce.number()` read the first four as 1, 3, 5 and 10.
 */
export const Id = z
  .union([z.number(), z.string().regex(/^[0-9]+$/, ID_RULE)], { error: ID_RULE })
  .transform(Number)
  .refine((n) => Number.isSafeInteger(n) && n > 0, ID_RULE)

/** A member's id (a profile): an `Id`. */
export const MemberId = Id

export const Image = z.object({
  id: z.number().int(),
  thumb_filename: z.string(),
  /**
   * Awaiting a moderator (photo pre-moderation): only ever in the owner's own
   * answers; other members' answers never hold a pending picture.
   */
  pending: z.literal(true).optional(),
  /**
   * Private (locked for others until they unlock it with credits): in the
   * owner's own answers, and in a profile answer to a viewer who unlocked it.
   */
  private: z.literal(true).optional(),
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
