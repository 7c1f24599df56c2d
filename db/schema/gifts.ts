// The gift catalogue: what a member can send in a chat besides words,
// per site, each with its price in credits (api/gifts/).
import { sql } from 'drizzle-orm'
import { boolean, check, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { id } from './columns.ts'

/**
 * One gift of a site's catalogue. `site` is a host of the `sites` setting,
 * or '' for every site (a site's own gift of the same slug replaces it
 * there). `name` null: the built-in gift's name in the member's language.
 */
export const gifts = pgTable(
  'gifts',
  {
    id: id(),
    site: text('site').notNull().default(''),
    slug: text('slug').notNull(),
    icon: text('icon').notNull(),
    name: text('name'),
    credits: integer('credits').notNull(),
    position: integer('position').notNull().default(0),
    active: boolean('active').notNull().default(true),
  },
  (t) => [
    uniqueIndex('gifts_site_slug_key').on(t.site, t.slug),
    // The floor: no gift is free by mistake.
    check('gifts_credits_check', sql`"credits" >= 1`),
  ],
)
