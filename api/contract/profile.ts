import { z } from 'zod'
import { Gender, Image } from './common.ts'

/** Spec §3 Profile as another member sees it. */
export const Profile = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  city: z.string().nullable(),
  country: z.string(),
  countryregion: z.string().nullable(),
  gender: Gender,
  personal: z.string().nullable(),
  images: z.array(Image),
  main_image: z.object({ thumb_filename: z.string() }).nullable(),
  /** Shown with settings.fictional_icon (spec §3). */
  fictional: z.boolean(),
  /** A moderator approved the member's posed selfie (photo verification): the verified mark. */
  verified: z.boolean(),
  /**
   * How recently the member was active (docs/live.md): `now` (seen within 5
   * minutes), `today`, `week`, or null (longer ago, or they hide it). In
   * search, profile and chat answers; absent where an answer does not say.
   */
  last_active: z.enum(['now', 'today', 'week']).nullable().optional(),
})
export type Profile = z.infer<typeof Profile>

/** The member's own profile adds what only they may see. */
export const OwnProfile = Profile.extend({
  date_of_birth: z.string(),
  language: z.string(),
})
export type OwnProfile = z.infer<typeof OwnProfile>

/** Spec §3 User. */
export const User = z.object({
  email: z.string(),
  profile: OwnProfile,
  main_image: z.object({ thumb_filename: z.string() }).nullable(),
  paid_user: z.boolean(),
  signup_date: z.string(),
  mailprovider: z.number().int(),
  fictional_icon: z.boolean(),
})
export type User = z.infer<typeof User>
