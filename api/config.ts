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

export type Config = {
  port: number
  host: string
  database: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string }
  mediaDir: string
  demoSeed: boolean
  demoMembers: number
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
  }
}
