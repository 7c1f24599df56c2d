// Visitors' pages: the complaints form (EU notice-and-action) and the
// members a lander shows (spec §2 landers, member landing pages).
import { z } from 'zod'
import { Email } from './account.ts'
import { Gender, Locale, MemberId } from './common.ts'
import {
  COMPLAINT_KINDS,
  COMPLAINT_NAME_MAX,
  COMPLAINT_SUBJECT_MAX,
  COMPLAINT_TEXT_MAX,
  COMPLAINT_TEXT_MIN,
  COMPLAINT_URL_MAX,
} from './rules/complaints.ts'
import { isVisitLander } from './rules/slugs.ts'
import { TRACKING_VALUE } from './rules/tracking.ts'

/** Plain text: no NUL, no lone surrogate (PostgreSQL cannot store either). */
const plain = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine(
      (s) =>
        !s.includes('\0') &&
        !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s),
      'not well-formed text',
    )

/** POST /api/complaints.php: a notice (what, where, why, who, good faith) or an appeal. */
export const ComplaintRequest = z
  .object({
    kind: z.enum(COMPLAINT_KINDS).default('notice'),
    name: plain(COMPLAINT_NAME_MAX).pipe(z.string().min(1)),
    email: Email,
    subject: plain(COMPLAINT_SUBJECT_MAX).pipe(z.string().min(1)),
    /** Where: a profile or message link; http(s) only. */
    url: z
      .union([z.literal(''), z.url({ protocol: /^https?$/ }).max(COMPLAINT_URL_MAX)])
      .optional(),
    text: plain(COMPLAINT_TEXT_MAX).pipe(z.string().min(COMPLAINT_TEXT_MIN)),
    /** The statement that the notice is made in good faith: must be given. */
    good_faith: z.literal(true),
    /** The language of the receipt mail; default the site's. */
    locale: Locale.optional(),
  })
  .strict()
export type ComplaintRequest = z.infer<typeof ComplaintRequest>

export const ComplaintResponse = z.object({
  complaint: z.object({
    reference: z.string(),
    status: z.literal('received'),
    created_at: z.string(),
  }),
})

/** GET /api/lander_members.php: the public card of a member, nothing more. */
export const LanderMember = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  city: z.string().nullable(),
  country: z.string(),
  gender: Gender,
  thumb: z.string(),
  fictional: z.boolean(),
})
export type LanderMember = z.infer<typeof LanderMember>

export const LanderMembersQuery = z.object({
  /** A member landing page's member: answered as `member`, the others are similar members. */
  member: MemberId.optional(),
})
export const LanderMembersResponse = z.object({
  /** The visitor's country (geo-IP settings, else the operator's). */
  country: z.string(),
  /** The member asked for, or null when deleted, unknown or without a photo. */
  member: LanderMember.nullable(),
  members: z.array(LanderMember),
})
export type LanderMembersResponse = z.infer<typeof LanderMembersResponse>

/**
 * The statement of reasons of a decision that restricted a member (DSA Art.
 * 17), read with the token its mail carries, so it works while logged out
 * or suspended; the appeal (DSA Art. 20) is filed with the same token.
 */
export const StatementQuery = z.object({ token: z.string().min(16).max(64) })
export const StatementResponse = z.object({
  /** warn | suspend | ban | remove_photo | remove_text */
  kind: z.string(),
  /** One of the site's rules (api/contract/operator/moderation.ts MODERATION_RULES). */
  rule: z.string(),
  reason: z.string(),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
  lifted_at: z.string().nullable(),
  /** Decided by a person; no automated means. */
  automated: z.literal(false),
  appeal: z
    .object({
      created_at: z.string(),
      /** null while open; upheld | lifted */
      outcome: z.string().nullable(),
      reason: z.string().nullable(),
    })
    .nullable(),
})
export type StatementResponse = z.infer<typeof StatementResponse>

export const APPEAL_TEXT_MAX = 5000
export const AppealRequest = z
  .object({
    token: z.string().min(16).max(64),
    text: plain(APPEAL_TEXT_MAX).pipe(z.string().min(COMPLAINT_TEXT_MIN)),
  })
  .strict()
export const AppealResponse = z.object({ status: z.literal('received') })

const trackingValue = z.string().regex(TRACKING_VALUE, 'not a tracking value')

/**
 * POST /api/lander_visit.php: a visitor was shown a lander or member landing
 * page (sent once per page view by the app; the server counts a visitor once
 * per page and half hour, leaves bots out, answers 204 either way).
 */
export const LanderVisitRequest = z
  .object({
    lander: z.string().max(40).refine(isVisitLander, 'not a lander'),
    /** The tracking record kept in the visitor's cookie, if any. */
    network: trackingValue.optional(),
    sub1: trackingValue.optional(),
  })
  .strict()
export type LanderVisitRequest = z.infer<typeof LanderVisitRequest>
