import type { Context } from 'hono'
import { loadAccountsConfig } from '../config.ts'
import { clientIp } from '../http/ratelimit.ts'
import { createMailer, type Mailer } from '../mail/mailer.ts'
import type { HostLookup } from '../push/endpoint-check.ts'
import type { LinkBase } from './accounts.ts'

/** What the account routes need beyond the database. */
export interface AccountsDeps {
  mailer: Mailer
  /** Base of the links in mails; unset = the request's origin (README "Decisions"). */
  publicUrl?: string | undefined
  /** Read the client IP from X-Forwarded-For (TRUST_PROXY=1). */
  trustProxy?: boolean
  /** Resolves push endpoint hosts (api/push/endpoint-check.ts); default the system resolver. */
  lookupHost?: HostLookup
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
    trustProxy: config.trustProxy,
  }
}

export const linkBase = (c: Context, deps: AccountsDeps): LinkBase => ({
  base: deps.publicUrl ?? new URL(c.req.url).origin,
})

export const ipOf = (c: Context, deps: AccountsDeps) => clientIp(c, deps.trustProxy ?? false)
