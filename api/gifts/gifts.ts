// The gift catalogue (db/schema/gifts.ts): per site, each gift with its price
// in credits. A site's catalogue is its own gifts plus the every-site ones
// ('' site) it does not replace by slug; only active ones are on sale. The
// operator edits it in the console (api/operator/sites-routes.ts, audited);
// a sent gift keeps what it was (icon, name, price) in its message, so a
// later change of the catalogue never rewrites a chat.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { gifts } from '../../db/schema/index.ts'
import type { Gift } from '../contract/gifts.ts'
import type { GiftEntry, GiftSaveRequest } from '../contract/operator/sites.ts'
import { cachedSiteKeyOf, siteKeyOf } from '../settings/index.ts'

type Row = typeof gifts.$inferSelect

const toGift = (r: Row): Gift => ({ slug: r.slug, icon: r.icon, name: r.name, credits: r.credits })

/** The gifts on sale on the site a request to `host` belongs to, in the catalogue's order. */
export async function catalogueOf(db: Db, host: string | undefined): Promise<Gift[]> {
  const site = await siteKeyOf(db, host)
  const rows = await db
    .select()
    .from(gifts)
    .where(inArray(gifts.site, site === '' ? [''] : ['', site]))
    .orderBy(asc(gifts.position), asc(gifts.credits), asc(gifts.slug))
  // A site's own gift replaces the every-site one of its slug, on sale or not.
  const own = new Set(rows.filter((r) => r.site === site && site !== '').map((r) => r.slug))
  return rows.filter((r) => r.active && (r.site === site || !own.has(r.slug))).map(toGift)
}

/**
 * One gift on sale on the site of `host`, or null (unknown, off sale, or
 * replaced by the site's own gift off sale): one query by slug, the site's
 * own row first, the site's key from the settings' cache.
 */
export async function giftOnSale(
  db: Db,
  host: string | undefined,
  slug: string,
): Promise<Gift | null> {
  const site = await cachedSiteKeyOf(db, host)
  const [row] = await db
    .select()
    .from(gifts)
    .where(and(eq(gifts.slug, slug), inArray(gifts.site, site === '' ? [''] : ['', site])))
    // '' (every site) sorts first: descending puts the site's own gift ahead.
    .orderBy(desc(gifts.site))
    .limit(1)
  return row?.active ? toGift(row) : null
}

/** Every gift of every site, for the console. */
export async function allGifts(db: Db): Promise<GiftEntry[]> {
  const rows = await db
    .select()
    .from(gifts)
    .orderBy(asc(gifts.site), asc(gifts.position), asc(gifts.slug))
  return rows.map((r) => ({
    site: r.site,
    slug: r.slug,
    icon: r.icon,
    name: r.name,
    credits: r.credits,
    position: r.position,
    active: r.active,
  }))
}

/** Adds or changes one gift (by site and slug); the gift before, or null when it is new. */
export async function saveGift(
  tx: Db,
  input: Omit<GiftSaveRequest, 'reason'> & { name: string | null },
): Promise<GiftEntry | null> {
  const [before] = await tx
    .select()
    .from(gifts)
    .where(and(eq(gifts.site, input.site), eq(gifts.slug, input.slug)))
    .for('update')
  const values = {
    site: input.site,
    slug: input.slug,
    icon: input.icon,
    name: input.name,
    credits: input.credits,
    position: input.position ?? 0,
    active: input.active ?? true,
  }
  await tx
    .insert(gifts)
    .values(values)
    .onConflictDoUpdate({
      target: [gifts.site, gifts.slug],
      set: { ...values, site: sql`excluded.site` },
    })
  if (!before) return null
  const { id: _id, ...rest } = before
  return rest
}
