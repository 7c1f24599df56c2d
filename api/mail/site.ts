import type { Context } from 'hono'
import { loadAccountsConfig } from '../config.ts'
import { clientIp } from '../http/ratelimit.ts'
import { createMailer, type Mailer } from './mailer.ts'

// What several domains need of the site as a whole: where mailed links point,
// the client's address, the mailer and the push services trusted in
// development. Shared here so that no domain reaches into another's files
// for them (docs/architecture.md, "Domains are boundaries"). It lives in mail/,
// not shared/: it builds the mailer and the mails' links, and shared/ stays at
// the bottom of the shared folders' order (it imports none of them).

/**
 * Where the mailed links point (linkBase): PUBLIC_URL, or the request's
 * origin on a site host; null for any other host, and then no mail is sent
 * (mailsAllowed).
 */
export interface LinkBase {
  base: string | null
}
export const link = ({ base }: LinkBase, path: string) => `${base}${path}`
/** Whether this request may send mails with links (its host is the site's). */
export const mailsAllowed = (links: LinkBase) => links.base !== null

/** Resolves a host name to its addresses (dns.lookup with all: true). */
export type HostLookup = (host: string) => Promise<string[]>

/** What the account routes need beyond the database. */
export interface AccountsDeps {
  mailer: Mailer
  /** Base of the links in mails; unset = the request's origin if it is a site host. */
  publicUrl?: string | undefined
  /** The hosts of the site (SITE_HOSTS) for links without publicUrl; unset = loopback only. */
  siteHosts?: readonly string[] | undefined
  /** Read the client IP from X-Forwarded-For (TRUST_PROXY=1). */
  trustProxy?: boolean
  /** Resolves push endpoint hosts (api/push/endpoint-check.ts); default the system resolver. */
  lookupHost?: HostLookup
  /**
   * Push services trusted as they are, plain http and loopback included: the
   * local push service (api/push/local-push-service.ts) in tests and
   * development. Production leaves it empty: https to public hosts only.
   */
  pushHttpOrigins?: readonly string[]
  /**
   * A development configuration (api/config.ts `development`): the developer
   * tools answer (POST /api/_dev/credits.php). Unset = off.
   */
  development?: boolean
}

/** Mailer and link settings the environment configures (api/config.ts). */
export function accountsFromEnv(env: NodeJS.ProcessEnv = process.env): AccountsDeps {
  const config = loadAccountsConfig(env)
  return {
    mailer: createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      devListing: config.devMail,
    }),
    publicUrl: config.publicUrl,
    siteHosts: config.siteHosts,
    trustProxy: config.trustProxy,
    pushHttpOrigins: pushHttpOrigins(env),
    development: config.development,
  }
}

/** PUSH_HTTP_ORIGINS: comma-separated origins of push services trusted as they are (development). */
export const pushHttpOrigins = (env: NodeJS.ProcessEnv = process.env): string[] =>
  (env.PUSH_HTTP_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '')

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Where the links of a mail sent for this request point (reset-link
 * poisoning): PUBLIC_URL when set; else the request's own origin, but only
 * when its host is one of the site's (SITE_HOSTS, or loopback in
 * development). A request to any other Host gets `null`: its mails are not
 * sent, since a link to a host an attacker names would hand them the token.
 * X-Forwarded-Host/-Proto count only behind a trusted proxy.
 */
export function linkBase(c: Context, deps: AccountsDeps): LinkBase {
  if (deps.publicUrl) return { base: deps.publicUrl }
  const url = new URL(c.req.url)
  const forwarded = (name: string) =>
    deps.trustProxy ? c.req.header(name)?.split(',')[0]?.trim() : undefined
  const host = (forwarded('x-forwarded-host') ?? url.host).toLowerCase()
  const proto = forwarded('x-forwarded-proto') ?? url.protocol.replace(':', '')
  const known =
    deps.siteHosts && deps.siteHosts.length > 0
      ? deps.siteHosts.includes(host)
      : LOOPBACK.has(host.replace(/:\d+$/, ''))
  if (!known || (proto !== 'http' && proto !== 'https')) {
    console.warn('mail: no link for a request to an unknown host; mail not sent', host)
    return { base: null }
  }
  return { base: `${proto}://${host}` }
}

export const ipOf = (c: Context, deps: AccountsDeps) => clientIp(c, deps.trustProxy ?? false)
