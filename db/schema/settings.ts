// Site settings (and the sites in them).
import { pgTable, text } from 'drizzle-orm/pg-core'
import { jsonb } from './columns.ts'

/** Server-side settings an operator changes without a deploy (spec §3 Settings), by key. */
export const siteSettings = pgTable('site_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
})
