import { z } from 'zod'
import { Gender } from './common.ts'

/** GET /api/xcams/search.php (spec §7). */
export const CamsQuery = z.object({
  gender: Gender.optional(),
  min_age: z.coerce.number().int().min(18).max(100).optional(),
  max_age: z.coerce.number().int().min(18).max(100).optional(),
})

/** Spec §3 webcam profile: `account`, plus what a tile shows. */
export const Cam = z.object({
  account: z.string(),
  name: z.string(),
  age: z.number().int(),
  gender: Gender,
  thumb_url: z.string(),
  online: z.boolean(),
})
export type Cam = z.infer<typeof Cam>

export const CamsResponse = z.object({ cams: z.array(Cam) })
export type CamsResponse = z.infer<typeof CamsResponse>

/** GET /api/xcams/redirect.php?account= (a click on a webcam tile). */
export const CamRedirectQuery = z.object({ account: z.string().min(1).max(64) })

/**
 * GET /api/resellpartner.php?flow=profile-search&redirect=1 (spec §7 webcam
 * click): a 302 to the resell partner. Only that flow, and only the redirect
 * form, are known.
 */
export const ResellPartnerQuery = z.object({
  flow: z.enum(['profile-search']),
  redirect: z.literal('1'),
})

/** GET /api/xcams/demo.php: the built-in demo provider's landing page. */
export const DemoProviderQuery = z.object({
  account: z.string().max(64).optional(),
  flow: z.literal('profile-search').optional(),
})
