import { z } from 'zod'
import { AgeAssuranceSetting } from './age.ts'
import { TEMPLATES } from './rules/templates.ts'

const Region = z.object({ id: z.string(), name: z.string() })
const SearchVisibility = z.enum(['none', 'all'])

/** Spec §1/§9: the three designs (rules/templates.ts); classic is the default. */
export const Template = z.enum(TEMPLATES)
export type Template = z.infer<typeof Template>

/** Spec §9 template flags: each part of the site an operator can switch off. */
export const TemplateFlags = z.object({
  navigation: z.boolean(),
  chat: z.boolean(),
  likes: z.boolean(),
  notifications: z.boolean(),
  footer_copyright: z.boolean(),
})
export type TemplateFlags = z.infer<typeof TemplateFlags>

/** Spec §3 Settings, as GET /api/settings.php answers it. */
export const Settings = z.object({
  domain_language: z.string(),
  region_data: z.record(z.string(), z.array(Region)),
  /** Spec §5: signups enabled when `all`, or `with_trafficsource` plus a network entry. */
  signups: z.enum(['all', 'with_trafficsource', 'other']),
  logged_out_search: SearchVisibility,
  logged_out_search_trafficsource: SearchVisibility,
  niche: z.number().int().min(1).max(7),
  /** Spec §1/§9: the design of the site (the root element's class). */
  template: Template,
  template_flags: TemplateFlags,
  /** VAPID public key (URL-safe base64) for push subscriptions. */
  push_pub: z.string(),
  geoip_selected_country: z.string().nullable(),
  geoip_country: z.string().nullable(),
  minimum_message_costs: z.record(
    z.string(),
    z.object({ costs: z.number(), currency: z.string() }),
  ),
  fictional_icon: z.boolean(),
  support_phone: z.string(),
  company_name: z.string(),
  company_address: z.string(),
  company_kvk: z.string(),
  company_city: z.string(),
  company_country: z.string(),
  company_tradenames: z.array(z.string()),
  company_vat_numbers: z.array(z.string()),
  delete_discount: z.number(),
  name: z.string(),
  countries: z.array(Region),
  visible_profile_fields: z.array(z.string()),
  visible_profile_notes: z.array(z.string()),
  search_fields: z.array(z.string()),
  cdn_prefix: z.string(),
  /** Spec §6: `cams` or `camads` here lets eligible members see webcam tiles. */
  member_resell: z.array(z.string()),
  /**
   * Photo pre-moderation (a moderator sees a photo before members do): when on, a newly uploaded picture waits
   * as `pending` (seen only by its owner) until a moderator approves it.
   */
  photo_premoderation: z.boolean(),
  /**
   * Age assurance (DSA Art. 28, api/age/): `off`; `signup`, a new member
   * proves to be 18+ before using member features; `first_contact`, before
   * the first message and before buying credits.
   */
  age_assurance: AgeAssuranceSetting,
  /**
   * A member reported as a fake profile by this many members is hidden from
   * search and the guest showcase until they pass photo verification
   * (docs/law.md, "Hidden after fake-profile reports"); 0: never.
   */
  fake_reports_to_hide: z.number().int().min(0),
  /**
   * Face match in photo verification (api/verification/face-match.ts), for
   * members who consent: `auto`, the machine approves a clear match with
   * the pose right and a moderator decides the rest; `assist`, a moderator
   * decides every request and sees the machine's scores; `off`, no face is
   * processed.
   */
  face_match: z.enum(['auto', 'assist', 'off']),
  /**
   * What the paid actions beyond a text message cost, in credits, per site
   * (docs/payments.md "What credits buy"). The floor is 1: no action is free
   * by mistake. A text message's price is `message_cost_credits`, server-wide.
   */
  photo_message_credits: z.number().int().min(1).max(10_000),
  voice_message_credits: z.number().int().min(1).max(10_000),
  private_photo_credits: z.number().int().min(1).max(10_000),
})
export type Settings = z.infer<typeof Settings>

/** Spec §3 company info response (GET /api/companyinfo.php): the imprint of the site. */
export const CompanyInfo = z.object({
  name: z.string(),
  address: z.string(),
  kvk: z.string(),
  city: z.string(),
  country: z.string(),
  tradenames: z.array(z.string()),
  vat_numbers: z.array(z.string()),
  support_phone: z.string(),
  delete_discount: z.number(),
})
export type CompanyInfo = z.infer<typeof CompanyInfo>
