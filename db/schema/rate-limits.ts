// Rate limits.
import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { ts } from './columns.ts'

/**
 * Fixed-window rate-limit counters, in the database so that limits hold
 * across API processes (docs/accounts.md, "Decisions").
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    windowStart: ts('window_start').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.key, t.windowStart] })],
)
