// Console endpoints of the sites part: the operator settings of spec §3 per
// site (host) or server-wide, the message cost, credit packages and prices,
// discount codes and route rules; traffic reports; the job queue. The rules
// every console endpoint follows are in api/contract/operator/staff.ts.
import { z } from 'zod'
import { Id } from '../common.ts'
import { Settings, TemplateFlags } from '../settings.ts'

/** The settings an operator sets (spec §3 Settings without the parts the server builds). */
export const OperatorSettings = Settings.omit({
  region_data: true,
  countries: true,
  push_pub: true,
})
export type OperatorSettings = z.infer<typeof OperatorSettings>

/**
 * Settings given for a site or server-wide: any subset, each field checked
 * with the same schema the settings are read with (template flags may be
 * given in part). An unknown field is refused, naming it.
 */
export const SettingsPatch = OperatorSettings.extend({ template_flags: TemplateFlags.partial() })
  .partial()
  .strict()
export type SettingsPatch = z.infer<typeof SettingsPatch>

/** A host as the `sites` setting keys it: lower case, `host` or `host:port`. */
export const SiteHost = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/,
    'a host name',
  )
  .max(253)

/**
 * One server route rule (spec §2): `from` is a path ("/old") or a path
 * prefix ending in "/*" ("/promo/*"); `to` a path of the site or an absolute
 * http(s) address.
 */
export const RouteRule = z.object({
  from: z.string().regex(/^\/[^?#\s]*$/),
  to: z.union([z.string().regex(/^\/[^\s]*$/), z.url({ protocol: /^https?$/ })]),
  status: z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)]).default(301),
})
export type RouteRule = z.infer<typeof RouteRule>

export const SiteEntry = z.object({
  host: z.string(),
  /** What this host sets itself. */
  overrides: z.record(z.string(), z.unknown()),
  /** What the host gets: defaults, server-wide settings, then its own. */
  effective: OperatorSettings,
})
export type SiteEntry = z.infer<typeof SiteEntry>

export const SitesResponse = z.object({
  /** The built-in defaults every site starts from. */
  defaults: OperatorSettings,
  /** The server-wide settings (site_settings rows), and what any other host gets. */
  server: z.object({
    overrides: z.record(z.string(), z.unknown()),
    effective: OperatorSettings,
  }),
  sites: z.array(SiteEntry),
  message_cost: z.number().int(),
  route_rules: z.array(RouteRule),
})
export type SitesResponse = z.infer<typeof SitesResponse>

const reason = z.string().trim().min(1).max(500).optional()
const settingKey = z.enum(Object.keys(OperatorSettings.shape) as [keyof OperatorSettings])

export const SiteUpdateRequest = z.object({
  /** The site to change; null: the server-wide settings. */
  host: SiteHost.nullable(),
  /** Fields to set. */
  settings: SettingsPatch.default({}),
  /** Fields to stop overriding (back to the server-wide value or the default). */
  clear: z.array(settingKey).max(40).default([]),
  reason,
})
export type SiteUpdateRequest = z.input<typeof SiteUpdateRequest>

export const SiteDeleteRequest = z.object({ host: SiteHost, reason })

export const MessageCostRequest = z.object({
  credits: z.number().int().min(0).max(10_000),
  reason,
})

export const RouteRulesRequest = z.object({ rules: z.array(RouteRule).max(200), reason })

const currency = z.string().regex(/^[A-Z]{3}$/, 'a currency code')
const packageId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'a package id')

export const PackageEntry = z.object({
  id: z.string(),
  credits: z.number().int(),
  bonus: z.number().int(),
  position: z.number().int(),
  featured: z.boolean(),
  active: z.boolean(),
  /** Price per currency in minor units (cents). */
  prices: z.record(z.string(), z.number().int()),
})
export type PackageEntry = z.infer<typeof PackageEntry>
export const PackagesAdminResponse = z.object({ packages: z.array(PackageEntry) })
export type PackagesAdminResponse = z.infer<typeof PackagesAdminResponse>

export const PackageSaveRequest = z.object({
  id: packageId,
  credits: z.number().int().min(1).max(1_000_000),
  bonus: z.number().int().min(0).max(1_000_000).default(0),
  position: z.number().int().min(0).max(1000).default(0),
  featured: z.boolean().default(false),
  active: z.boolean().default(true),
  /** Every currency the package is sold in; a currency left out is no longer sold. */
  prices: z.record(currency, z.number().int().min(1).max(100_000_000)),
  reason,
})
export type PackageSaveRequest = z.input<typeof PackageSaveRequest>

export const DISCOUNT_KINDS = ['normal', 'welcome', 'time_bonus'] as const
export const DiscountEntry = z.object({
  code: z.string(),
  kind: z.enum(DISCOUNT_KINDS),
  bonus_percent: z.number().int().nullable(),
  percent_off: z.number().int().nullable(),
  ends_at: z.string().nullable(),
  max_uses: z.number().int().nullable(),
  uses: z.number().int(),
})
export type DiscountEntry = z.infer<typeof DiscountEntry>
export const DiscountsAdminResponse = z.object({ discounts: z.array(DiscountEntry) })
export type DiscountsAdminResponse = z.infer<typeof DiscountsAdminResponse>

/** An operator's code (personal codes are made by the server, one per member). */
export const DiscountSaveRequest = z
  .object({
    code: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9][A-Z0-9_-]{2,31}$/, 'letters, digits, - and _'),
    kind: z.enum(['normal', 'time_bonus']),
    bonus_percent: z.number().int().min(1).max(500).nullable().default(null),
    percent_off: z.number().int().min(1).max(100).nullable().default(null),
    ends_at: z.iso.datetime({ offset: true }).nullable().default(null),
    max_uses: z.number().int().min(1).max(1_000_000).nullable().default(null),
    reason,
  })
  .refine((d) => (d.bonus_percent === null) !== (d.percent_off === null), {
    message: 'either bonus credits or money off',
    path: ['bonus_percent'],
  })
export const DiscountDeleteRequest = z.object({ code: z.string().trim().min(1).max(32), reason })

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date, YYYY-MM-DD')

/** The report's `site` filter for the server-wide site (what any host without a `sites` entry gets). */
export const SERVER_WIDE_SITE = '_'

/**
 * Days (UTC) from `from` to `to`, both included; without them, the last 30
 * days. `site`: only that site (a host of the `sites` setting, or
 * SERVER_WIDE_SITE); without it, every site, each in its own rows.
 */
export const ReportQuery = z.object({
  from: day.optional(),
  to: day.optional(),
  site: z.union([z.literal(SERVER_WIDE_SITE), SiteHost]).optional(),
})
export type ReportQuery = z.infer<typeof ReportQuery>

/** A gift of a site's catalogue as the console lists it (inactive ones too). */
export const GiftEntry = z.object({
  /** A host of the `sites` setting, or '' for every site. */
  site: z.string(),
  slug: z.string(),
  icon: z.string(),
  name: z.string().nullable(),
  credits: z.number().int(),
  position: z.number().int(),
  active: z.boolean(),
})
export type GiftEntry = z.infer<typeof GiftEntry>
export const GiftsAdminResponse = z.object({ gifts: z.array(GiftEntry) })
export type GiftsAdminResponse = z.infer<typeof GiftsAdminResponse>

/** Adds or changes a gift (site and slug name it); `active: false` takes it off sale, history kept. */
export const GiftSaveRequest = z.object({
  /** A host of the `sites` setting, or '' for every site. */
  site: z.union([z.literal(''), SiteHost]),
  slug: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'a gift id'),
  /** One emoji or a short symbol: at most 8 characters. */
  icon: z.string().trim().min(1).max(8),
  /** Empty or absent: the built-in name (in the member's language) for a built-in slug. */
  name: z
    .string()
    .trim()
    .max(40)
    .nullish()
    .transform((v) => v || null),
  /** The floor is 1: no gift is free by mistake. */
  credits: z.number().int().min(1).max(10_000),
  position: z.number().int().min(0).max(1000).default(0),
  active: z.boolean().default(true),
  reason,
})
export type GiftSaveRequest = z.input<typeof GiftSaveRequest>

/** One day of one site and traffic source (network, sub id, lander). */
export const ReportRow = z.object({
  day: z.string(),
  /**
   * The site: a host of the `sites` setting, '' for the server-wide site,
   * null for sign-ups from before sites were recorded (migration 0017).
   */
  site: z.string().nullable(),
  network: z.string().nullable(),
  sub1: z.string().nullable(),
  lander: z.string().nullable(),
  /** Visits to the lander that day (one per visitor and half hour, bots left out). */
  visits: z.number().int(),
  signups: z.number().int(),
  /** Sign-ups that confirmed their address that day. */
  activations: z.number().int(),
  /** Members whose first purchase was that day. */
  first_purchases: z.number().int(),
  /** Paid orders that day, minor units per currency. */
  revenue: z.record(z.string(), z.number().int()),
  /**
   * Credits spent that day on each paid action (message, photo, voice,
   * unlock, gift): the revenue by what members bought with their credits.
   */
  spent: z.record(z.string(), z.number().int()),
})
export type ReportRow = z.infer<typeof ReportRow>
export const ReportResponse = z.object({
  from: z.string(),
  to: z.string(),
  /** The filter asked for, or null: every site. */
  site: z.string().nullable(),
  /** The sites one can filter by: the hosts of the `sites` setting. */
  sites: z.array(z.string()),
  rows: z.array(ReportRow),
})
export type ReportResponse = z.infer<typeof ReportResponse>

export const JOB_LISTS = ['queued', 'running', 'failed'] as const
export const JobEntry = z.object({
  id: z.number().int(),
  kind: z.string(),
  status: z.string(),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  run_at: z.string(),
  created_at: z.string(),
  last_error: z.string().nullable(),
})
export type JobEntry = z.infer<typeof JobEntry>
export const JobsResponse = z.object({
  queued: z.array(JobEntry),
  running: z.array(JobEntry),
  failed: z.array(JobEntry),
})
export type JobsResponse = z.infer<typeof JobsResponse>
export const JobActionRequest = z.object({
  id: Id,
  action: z.enum(['retry', 'discard']),
  reason,
})
export type JobActionRequest = z.input<typeof JobActionRequest>

export const sitesEndpoints = {
  operatorSites: {
    method: 'GET',
    path: '/api/operator/sites.php',
    response: SitesResponse,
    capability: 'sites.edit',
  },
  operatorSiteUpdate: {
    method: 'PUT',
    path: '/api/operator/sites.php',
    body: SiteUpdateRequest,
    response: SitesResponse,
    capability: 'sites.edit',
  },
  operatorSiteDelete: {
    method: 'DELETE',
    path: '/api/operator/sites.php',
    body: SiteDeleteRequest,
    response: SitesResponse,
    capability: 'sites.edit',
  },
  operatorMessageCost: {
    method: 'PUT',
    path: '/api/operator/message-cost.php',
    body: MessageCostRequest,
    response: SitesResponse,
    capability: 'sites.edit',
  },
  operatorRouteRules: {
    method: 'PUT',
    path: '/api/operator/route-rules.php',
    body: RouteRulesRequest,
    response: SitesResponse,
    capability: 'sites.edit',
  },
  operatorPackages: {
    method: 'GET',
    path: '/api/operator/packages.php',
    response: PackagesAdminResponse,
    capability: 'sites.edit',
  },
  operatorPackageSave: {
    method: 'PUT',
    path: '/api/operator/packages.php',
    body: PackageSaveRequest,
    response: PackagesAdminResponse,
    capability: 'sites.edit',
  },
  operatorGifts: {
    method: 'GET',
    path: '/api/operator/gifts.php',
    response: GiftsAdminResponse,
    capability: 'sites.edit',
  },
  operatorGiftSave: {
    method: 'PUT',
    path: '/api/operator/gifts.php',
    body: GiftSaveRequest,
    response: GiftsAdminResponse,
    capability: 'sites.edit',
  },
  operatorDiscounts: {
    method: 'GET',
    path: '/api/operator/discounts.php',
    response: DiscountsAdminResponse,
    capability: 'sites.edit',
  },
  operatorDiscountSave: {
    method: 'PUT',
    path: '/api/operator/discounts.php',
    body: DiscountSaveRequest,
    response: DiscountsAdminResponse,
    capability: 'sites.edit',
  },
  operatorDiscountDelete: {
    method: 'DELETE',
    path: '/api/operator/discounts.php',
    body: DiscountDeleteRequest,
    response: DiscountsAdminResponse,
    capability: 'sites.edit',
  },
  operatorReport: {
    method: 'GET',
    path: '/api/operator/report.php',
    query: ReportQuery,
    response: ReportResponse,
    capability: 'reports.traffic',
  },
  /** The same report as a CSV file (text/csv, a download). */
  operatorReportCsv: {
    method: 'GET',
    path: '/api/operator/report-csv.php',
    query: ReportQuery,
    response: null,
    capability: 'reports.traffic',
  },
  operatorJobs: {
    method: 'GET',
    path: '/api/operator/jobs.php',
    response: JobsResponse,
    capability: 'jobs',
  },
  operatorJobAction: {
    method: 'POST',
    path: '/api/operator/jobs.php',
    body: JobActionRequest,
    response: JobsResponse,
    capability: 'jobs',
  },
} as const
