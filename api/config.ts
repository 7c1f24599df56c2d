import { z } from 'zod'

// Configuration comes from the environment, parsed once (ARCHITECTURE "The API").
const Env = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** PostgreSQL URL; without it the site runs on embedded PGlite. */
  DATABASE_URL: z.string().url().optional(),
  /** Where PGlite keeps its data and where uploaded/seeded pictures live. */
  DATA_DIR: z.string().default('.data'),
  MEDIA_DIR: z.string().optional(),
  /** `off` in production: no demo member with a published password. */
  DEMO_SEED: z.enum(['on', 'off']).default('on'),
  DEMO_MEMBERS: z.coerce.number().int().min(0).max(100_000).default(2000),
})

/** An absolute http(s) URL, or a same-origin path (`/x`, never `//host`). */
const redirectTarget = z
  .string()
  .refine((v) => (/^https?:\/\//.test(v) ? URL.canParse(v) : /^\/(?!\/)/.test(v)), {
    message: 'an http(s) URL or a path starting with /',
  })

/** The webcam tiles' provider (spec §6, §7 xcams); every variable optional (demo feed). */
const CamsEnv = z.object({
  /** JSON feed of webcam profiles; unset = the built-in demo feed (api/cams/cams.ts). */
  CAMS_UPSTREAM_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Where a webcam click goes; the account is appended URL-encoded. */
  CAMS_REDIRECT_BASE: redirectTarget.optional(),
  /** Where /api/resellpartner.php?flow=profile-search&redirect=1 sends the member. */
  RESELL_PARTNER_URL: redirectTarget.optional(),
})

export type CamsConfig = {
  upstreamUrl: string | undefined
  redirectBase: string | undefined
  resellPartnerUrl: string | undefined
}

export function loadCamsConfig(env: NodeJS.ProcessEnv = process.env): CamsConfig {
  const e = CamsEnv.parse(env)
  return {
    upstreamUrl: e.CAMS_UPSTREAM_URL,
    redirectBase: e.CAMS_REDIRECT_BASE,
    resellPartnerUrl: e.RESELL_PARTNER_URL,
  }
}

/** Accounts: mail, links in mails, client IP for rate limits. */
const AccountsEnv = z.object({
  /** smtp://user:pass@host:port (smtps:// for TLS); unset = mails are only stored (dev). */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('Amora <no-reply@localhost>'),
  /**
   * The site's address for links in mails (README "Security": reset-link
   * poisoning). Unset = the request's origin when its host is a SITE_HOSTS one.
   */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * Without PUBLIC_URL: the hosts (`host` or `host:port`, comma-separated)
   * this site answers on. A mail link goes to the request's host only when
   * it is one of them; unset = loopback only (development).
   */
  SITE_HOSTS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine(
      (hosts) =>
        hosts.every((h) => URL.canParse(`http://${h}`) && new URL(`http://${h}`).host === h),
      {
        message: 'host or host:port names, comma-separated',
      },
    ),
  /** 1 behind a reverse proxy: the client IP is then the last X-Forwarded-For entry. */
  TRUST_PROXY: z.enum(['0', '1']).default('0'),
  /** `off` hides the developer mail listing even in development. */
  DEV_MAIL: z.enum(['on', 'off']).optional(),
  DEMO_SEED: z.enum(['on', 'off']).default('on'),
  NODE_ENV: z.string().optional(),
})

export type AccountsConfig = {
  smtpUrl: string | undefined
  mailFrom: string
  publicUrl: string | undefined
  siteHosts: string[]
  trustProxy: boolean
  /**
   * The full developer listing of GET /api/_dev/mail.php: a development
   * configuration only, i.e. no SMTP, the demo seed on, NODE_ENV not
   * production, and DEV_MAIL not off. Never with DEMO_SEED=off.
   */
  devMail: boolean
}

export function loadAccountsConfig(env: NodeJS.ProcessEnv = process.env): AccountsConfig {
  const e = AccountsEnv.parse(env)
  return {
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    siteHosts: e.SITE_HOSTS,
    trustProxy: e.TRUST_PROXY === '1',
    devMail:
      !e.SMTP_URL && e.DEMO_SEED === 'on' && e.NODE_ENV !== 'production' && e.DEV_MAIL !== 'off',
  }
}

export type Config = {
  port: number
  host: string
  database: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string }
  mediaDir: string
  demoSeed: boolean
  demoMembers: number
  cams: CamsConfig
  accounts: AccountsConfig
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = Env.parse(env)
  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'pglite', dataDir: `${e.DATA_DIR}/pglite` },
    mediaDir: e.MEDIA_DIR ?? `${e.DATA_DIR}/media`,
    demoSeed: e.DEMO_SEED === 'on',
    demoMembers: e.DEMO_MEMBERS,
    cams: loadCamsConfig(env),
    accounts: loadAccountsConfig(env),
  }
}
