// Helpers of the account suites: an API whose mailer the test can wait for,
// sign-up bodies, and the stored mails with their links.
import { asc, eq } from 'drizzle-orm'
import { expect } from 'vitest'
import type { Db } from '../../db/client.ts'
import type { ReadRouter } from '../../db/replica.ts'
import { mails } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import type { SignupRequest } from '../contract/index.ts'
import { createMailer, type Mailer } from '../mail/mailer.ts'
import type { HostLookup } from '../push/endpoint-check.ts'
import { type SendOptions, send, sessionToken } from './http.ts'

export interface AccountsApi {
  app: Api
  mailer: Mailer
}

/**
 * The API with a mailer of the test's own (store-only unless smtpUrl is
 * given) and trust in X-Forwarded-For, so a test can play several clients.
 */
export function accountsApi(
  db: Db,
  options: {
    mediaDir?: string
    smtpUrl?: string
    publicUrl?: string
    siteHosts?: string[]
    lookupHost?: HostLookup
    /** Reads of the hot paths on a replica (db/replica.ts). */
    reads?: ReadRouter
  } = {},
): AccountsApi {
  const mailer = createMailer({ smtpUrl: options.smtpUrl, devListing: !options.smtpUrl })
  const app = createApi({
    db,
    accounts: {
      mailer,
      trustProxy: true,
      publicUrl: options.publicUrl,
      siteHosts: options.siteHosts,
      lookupHost: options.lookupHost ?? fakeDns,
    },
    ...(options.mediaDir ? { mediaDir: options.mediaDir } : {}),
    ...(options.reads ? { reads: options.reads } : {}),
  })
  return { app, mailer }
}

/** A public address (example.com's) that every `*.example` name resolves to in tests. */
export const PUBLIC_TEST_ADDRESS = '93.184.215.14'

/**
 * The tests' DNS: names under the reserved `.example` domain resolve to a
 * public address, anything else does not exist. No test asks the real DNS.
 */
export const fakeDns: HostLookup = async (host) => {
  if (host.endsWith('.example') || host === 'example') return [PUBLIC_TEST_ADDRESS]
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
}

let serial = 0
/** A unique address per call (suites share a PostgreSQL server, not a database). */
export const freshEmail = (prefix = 'new') => `${prefix}-${++serial}-${process.pid}@example.com`

export const signupBody = (over: Partial<SignupRequest> = {}): SignupRequest => ({
  email: freshEmail(),
  name: 'Alice',
  password: 'a long enough secret',
  timezone: 'Europe/Amsterdam',
  country: 'NL',
  language: 'en',
  form_path: '/signup',
  ...over,
})

/** A client IP for X-Forwarded-For (the API trusts it in these suites). */
export const ip = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}` })

export async function signUp(
  app: Api,
  /** Usually a SignupRequest; anything, to test refusals. */
  body: unknown,
  options: SendOptions = {},
): Promise<{ res: Response; cookie: string | undefined }> {
  const res = await send(app, '/api/user.php?new=1', { method: 'POST', body, ...options })
  const token = sessionToken(res)
  return { res, cookie: token ? `sid=${token}` : undefined }
}

/** Signs up and returns the session cookie (fails the test otherwise). */
export async function signUpOk(app: Api, body: SignupRequest, options: SendOptions = {}) {
  const { res, cookie } = await signUp(app, body, options)
  expect(res.status, 'sign-up').toBe(200)
  expect(cookie, 'sign-up session').toBeTruthy()
  return cookie ?? ''
}

/** Stored mails to an address, oldest first. */
export const mailsTo = (db: Db, to: string) =>
  db.select().from(mails).where(eq(mails.to, to)).orderBy(asc(mails.id))

/** The token of the first link in a text whose path starts with `path`. */
export function tokenIn(text: string, path: string): string {
  for (const m of text.matchAll(/https?:\/\/[^\s<>"]+/g)) {
    const url = new URL(m[0])
    const token = url.searchParams.get('token')
    if (url.pathname.startsWith(path) && token) return token
  }
  throw new Error(`no ${path} link with a token in:\n${text}`)
}
