import { z } from 'zod'

// Configuration comes from the environment, parsed once (docs/architecture.md, "The API").
const Env = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** PostgreSQL URL; without it the site runs on embedded PGlite. */
  DATABASE_URL: z.string().url().optional(),
  /**
   * Connections of this process's PostgreSQL pool (LISTEN has one more of its
   * own); every process counts against the server's max_connections.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * A PostgreSQL streaming replica for the read-only hot paths (search,
   * profiles, likes lists); needs DATABASE_URL (db/replica.ts).
   */
  DATABASE_REPLICA_URL: z.string().url().optional(),
  /** A replica further behind the primary than this is skipped (reads go to the primary). */
  DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(100).max(600_000).default(3000),
  /** Where PGlite keeps its data and, without S3_BUCKET, the pictures (loadStorageConfig). */
  DATA_DIR: z.string().default('.data'),
  /** `off` in production: no demo member with a published password. */
  DEMO_SEED: z.enum(['on', 'off']).default('on'),
  DEMO_MEMBERS: z.coerce.number().int().min(0).max(100_000).default(2000),
  /**
   * A directory that keeps the demo seed's rendered faces between starts
   * (db/seed/avatars.ts, cachedPair): the browser tests set it, so each of
   * their fresh sites copies the faces instead of rendering them again.
   */
  DEMO_AVATAR_CACHE: z.string().min(1).optional(),
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

/**
 * When paid sends go together in one statement (api/chats/send-batch.ts):
 * while SEND_GATHER_IN_FLIGHT send statements are at work, the sends that
 * come wait and go together, at most SEND_GATHER_MOST in one; 0 sends each
 * alone. A statement at work longer than SEND_GATHER_STALL_MS (a lock wait)
 * no longer holds the others back. The defaults are the figures measured best on two cores
 * (bench/RESULTS.md, "Several sends in one statement").
 */
const SendGatheringEnv = z.object({
  SEND_GATHER_IN_FLIGHT: z.coerce.number().int().min(0).max(64).default(1),
  SEND_GATHER_MOST: z.coerce.number().int().min(2).max(256).default(32),
  /** A send statement at work this long (ms) no longer holds the waiting sends back. */
  SEND_GATHER_STALL_MS: z.coerce.number().int().min(1).max(60_000).default(50),
  /** A send that finds no statement at work in a busy process waits this long (ms) for company; 0: never. */
  SEND_GATHER_WAIT_MS: z.coerce.number().int().min(0).max(50).default(2),
})

/** When paid sends go together (api/chats/send-batch.ts sendGatherer). */
export interface SendGathering {
  /** Send statements at work before sends wait to go together; 0: every send alone. */
  inFlight: number
  /** The most sends in one statement. */
  most: number
  /**
   * A statement at work longer than this (ms) no longer holds back the
   * waiting sends (it waits on a lock, say): another statement may start.
   */
  stallMs: number
  /**
   * A send that finds no statement at work while the process is busy waits
   * this long (ms) for the sends on their way, to go with them; 0: at once.
   */
  waitMs: number
}

export function loadSendGathering(env: NodeJS.ProcessEnv = process.env): SendGathering {
  const e = SendGatheringEnv.parse(env)
  return {
    inFlight: e.SEND_GATHER_IN_FLIGHT,
    most: e.SEND_GATHER_MOST,
    stallMs: e.SEND_GATHER_STALL_MS,
    waitMs: e.SEND_GATHER_WAIT_MS,
  }
}

/** What the server serves of the build (dist/). */
const ServeEnv = z.object({
  /**
   * `public` serves the build's source maps (`*.map`, the app's whole
   * source); unset or `off`, they answer 404. They are built either way, for
   * debugging, but the scripts do not point at them (vite.config.ts).
   */
  SOURCE_MAPS: z.enum(['public', 'off']).default('off'),
})

export type ServeConfig = { publicSourceMaps: boolean }

export function loadServeConfig(env: NodeJS.ProcessEnv = process.env): ServeConfig {
  return { publicSourceMaps: ServeEnv.parse(env).SOURCE_MAPS === 'public' }
}

/** Accounts: mail, links in mails, client IP for rate limits. */
const AccountsEnv = z.object({
  /** smtp://user:pass@host:port (smtps:// for TLS); unset = mails are only stored (dev). */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('Amora <no-reply@localhost>'),
  /**
   * The site's address for links in mails (docs/security.md: reset-link
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
  /**
   * GET /api/_dev/mail.php (the page /_dev/mail) without SMTP: a signed-in
   * member sees the mails sent to them (`on`, the default); `all` lists every
   * stored mail, other members' links included, to anyone (development only:
   * never with SMTP_URL, NODE_ENV=production or DEMO_SEED=off); `off` also
   * turns the developer tools of a demo start off.
   */
  DEV_MAIL: z.enum(['on', 'all', 'off']).optional(),
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
   * A development configuration: no SMTP, the demo seed on, NODE_ENV not
   * production, and DEV_MAIL not off. The developer tools (the panel's
   * credits to zero) work only here.
   */
  development: boolean
  /**
   * The full developer listing of GET /api/_dev/mail.php (every stored mail,
   * other members' reset links included, to anyone): only when a development
   * configuration asks for it with DEV_MAIL=all. Otherwise a member sees only
   * their own mails there.
   */
  devMail: boolean
}

export function loadAccountsConfig(env: NodeJS.ProcessEnv = process.env): AccountsConfig {
  const e = AccountsEnv.parse(env)
  const development =
    !e.SMTP_URL && e.DEMO_SEED === 'on' && e.NODE_ENV !== 'production' && e.DEV_MAIL !== 'off'
  return {
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    siteHosts: e.SITE_HOSTS,
    trustProxy: e.TRUST_PROXY === '1',
    development,
    devMail: development && e.DEV_MAIL === 'all',
  }
}

/**
 * Who takes the money. Mollie when MOLLIE_API_KEY is set; the built-in test
 * provider (no money moves, its own checkout page) only when asked for with
 * PAYMENTS=test, or on a demo start (DEMO_SEED on, the README's quick
 * start); otherwise none, and buying credits is unavailable. A production
 * start (DEMO_SEED=off) without a key never falls back to the test provider:
 * its checkout grants credits to whoever presses "Pay".
 */
const PaymentsEnv = z.object({
  PAYMENTS: z.enum(['mollie', 'test', 'off']).optional(),
  /** An empty value counts as unset (a compose file's `MOLLIE_API_KEY: ""`). */
  MOLLIE_API_KEY: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  /** Points the Mollie SDK elsewhere (the tests' local Mollie stand-in). */
  MOLLIE_API_ENDPOINT: z.preprocess(
    (v) => v || undefined,
    z.url({ protocol: /^https?$/ }).optional(),
  ),
  DEMO_SEED: z.enum(['on', 'off']).default('on'),
})

export type PaymentsConfig =
  | { kind: 'mollie'; apiKey: string; apiEndpoint: string | undefined }
  | { kind: 'test' }
  | { kind: 'off' }

export function loadPaymentsConfig(env: NodeJS.ProcessEnv = process.env): PaymentsConfig {
  const e = PaymentsEnv.parse(env)
  const kind = e.PAYMENTS ?? (e.MOLLIE_API_KEY ? 'mollie' : e.DEMO_SEED === 'on' ? 'test' : 'off')
  if (kind === 'mollie') {
    if (!e.MOLLIE_API_KEY) throw new Error('PAYMENTS=mollie needs MOLLIE_API_KEY')
    return { kind, apiKey: e.MOLLIE_API_KEY, apiEndpoint: e.MOLLIE_API_ENDPOINT }
  }
  return { kind }
}

/** What the start prints about payments: the operator sees at once who takes money. */
export function paymentsBanner(config: PaymentsConfig): string {
  switch (config.kind) {
    case 'mollie':
      return `start: payments through Mollie${config.apiEndpoint ? ` at ${config.apiEndpoint}` : ''}`
    case 'test':
      return 'start: WARNING payments use the built-in TEST provider: no money moves and its checkout grants credits (PAYMENTS=test or a demo start; set MOLLIE_API_KEY for real payments)'
    case 'off':
      return 'start: no payment provider (no MOLLIE_API_KEY): buying credits is unavailable'
  }
}

/**
 * Whether age checks trust the built-in test issuer and the site serves its
 * test wallet (api/age/test-wallet.ts): only when asked for with
 * AGE_TEST_WALLET=on, or on a demo start (DEMO_SEED on, the README's quick
 * start), as the test payment provider (PAYMENTS=test). A production start
 * (DEMO_SEED=off) without the switch never trusts the test issuer: its
 * wallet page proves anyone 18 or older at the press of a button.
 * AGE_TEST_WALLET=off turns it off on a demo start too.
 */
const AgeTestWalletEnv = z.object({
  AGE_TEST_WALLET: z.preprocess((v) => v || undefined, z.enum(['on', 'off']).optional()),
  DEMO_SEED: z.enum(['on', 'off']).default('on'),
})

export function ageTestWalletOn(env: NodeJS.ProcessEnv = process.env): boolean {
  const e = AgeTestWalletEnv.parse(env)
  return (e.AGE_TEST_WALLET ?? e.DEMO_SEED) === 'on'
}

/** What the start prints about the age check's test wallet when it is on; else nothing. */
export const ageTestWalletBanner = (on: boolean): string | null =>
  on
    ? 'start: WARNING age checks trust the built-in TEST issuer, and its test wallet page proves anyone 18+ (AGE_TEST_WALLET=on or a demo start; set AGE_TEST_WALLET=off or DEMO_SEED=off in production)'
    : null

/**
 * Where pictures are kept (api/images/storage.ts). S3 when S3_BUCKET is set,
 * configured by the AWS SDK's own variables: AWS_ENDPOINT_URL_S3 (or
 * AWS_ENDPOINT_URL) for a store other than AWS (MinIO, a stand-in: then
 * path-style addressing), AWS_REGION, and the credentials
 * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), which the SDK reads itself.
 * Otherwise a directory: MEDIA_DIR, default DATA_DIR/media.
 */
const StorageEnv = z.object({
  /** An empty value counts as unset (a compose file's `S3_BUCKET: ""`). */
  S3_BUCKET: z.preprocess(
    (v) => v || undefined,
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name')
      .optional(),
  ),
  AWS_ENDPOINT_URL_S3: z.preprocess(
    (v) => v || undefined,
    z.url({ protocol: /^https?$/ }).optional(),
  ),
  AWS_ENDPOINT_URL: z.preprocess((v) => v || undefined, z.url({ protocol: /^https?$/ }).optional()),
  AWS_REGION: z.preprocess((v) => v || undefined, z.string().optional()),
  DATA_DIR: z.string().default('.data'),
  MEDIA_DIR: z.string().optional(),
})

export type StorageConfig =
  | { kind: 'disk'; dir: string }
  | { kind: 's3'; bucket: string; endpoint: string | undefined; region: string | undefined }

export function loadStorageConfig(env: NodeJS.ProcessEnv = process.env): StorageConfig {
  const e = StorageEnv.parse(env)
  if (!e.S3_BUCKET) return { kind: 'disk', dir: e.MEDIA_DIR ?? `${e.DATA_DIR}/media` }
  const endpoint = e.AWS_ENDPOINT_URL_S3 ?? e.AWS_ENDPOINT_URL
  // A store other than AWS rarely cares about the region, but the SDK needs one.
  const region = e.AWS_REGION ?? (endpoint ? 'us-east-1' : undefined)
  return { kind: 's3', bucket: e.S3_BUCKET, endpoint, region }
}

/** What the start prints about pictures: which store is live. */
export function storageBanner(config: StorageConfig): string {
  return config.kind === 's3'
    ? `start: pictures in S3 bucket ${config.bucket}${config.endpoint ? ` at ${config.endpoint} (path-style)` : ''}`
    : `start: pictures on disk in ${config.dir} (set S3_BUCKET for object storage shared by several machines)`
}

export type Config = {
  port: number
  host: string
  database:
    | { kind: 'postgres'; url: string; poolSize: number }
    | { kind: 'pglite'; dataDir: string }
  /** The streaming replica of DATABASE_REPLICA_URL, if any (db/replica.ts). */
  replica: ReplicaConfig | undefined
  storage: StorageConfig
  demoSeed: boolean
  demoMembers: number
  demoAvatarCache: string | undefined
  cams: CamsConfig
  accounts: AccountsConfig
  serve: ServeConfig
  payments: PaymentsConfig
  ageTestWallet: boolean
  /** When paid sends go together (loadSendGathering). */
  sendGathering: SendGathering
}

/** The read replica of DATABASE_REPLICA_URL; only beside a PostgreSQL primary. */
function replicaOf(e: z.infer<typeof Env>): ReplicaConfig | undefined {
  if (!e.DATABASE_REPLICA_URL) return undefined
  if (!e.DATABASE_URL)
    throw new Error('DATABASE_REPLICA_URL needs DATABASE_URL (a PostgreSQL primary)')
  return {
    url: e.DATABASE_REPLICA_URL,
    poolSize: e.DATABASE_POOL_SIZE,
    maxLagMs: e.DATABASE_REPLICA_MAX_LAG_MS,
  }
}

export interface ReplicaConfig {
  url: string
  poolSize: number
  maxLagMs: number
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = Env.parse(env)
  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: `${e.DATA_DIR}/pglite` },
    replica: replicaOf(e),
    storage: loadStorageConfig(env),
    demoSeed: e.DEMO_SEED === 'on',
    demoMembers: e.DEMO_MEMBERS,
    demoAvatarCache: e.DEMO_AVATAR_CACHE,
    cams: loadCamsConfig(env),
    accounts: loadAccountsConfig(env),
    serve: loadServeConfig(env),
    payments: loadPaymentsConfig(env),
    ageTestWallet: ageTestWalletOn(env),
    // Read at the start, so a value out of range stops it naming the variable.
    sendGathering: loadSendGathering(env),
  }
}
