import type { Context } from 'hono'
import type { z } from 'zod'
import { loadAccountsConfig } from '../config.ts'
import { ApiFailure } from '../http/errors.ts'
import { clientIp } from '../http/ratelimit.ts'
import { createMailer, type Mailer } from '../mail/mailer.ts'
import type { LinkBase } from './accounts.ts'

/** What the account routes need beyond the database. */
export interface AccountsDeps {
  mailer: Mailer
  /** Base of the links in mails; unset = the request's origin (README "Decisions"). */
  publicUrl?: string | undefined
  /** Read the client IP from X-Forwarded-For (TRUST_PROXY=1). */
  trustProxy?: boolean
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

/**
 * A body checked against a schema the query picks (POST /api/user.php?new=1,
 * ?do=1 calls), with the API's usual 400 naming the first bad field.
 */
export function parseOr400<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = issue?.path.map(String).join('.') || 'body'
  throw new ApiFailure(400, 'invalid_input', field, `${field}: ${issue?.message ?? 'invalid'}`)
}
