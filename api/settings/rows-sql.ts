// The site_settings rows as the console edits them, key by key. Writing one
// drops every process's cached settings at the commit (api/settings/settings.ts).
import { eq, inArray } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { siteSettings } from '../../db/schema/index.ts'
import { notifyCacheChange } from '../events/bus.ts'
import { SETTINGS_CACHE } from './settings.ts'

/** The stored values of `keys` (JSON), by key; a key not set is missing. */
export async function settingRows(db: Db, keys: string[]): Promise<Map<string, unknown>> {
  const rows = await db.select().from(siteSettings).where(inArray(siteSettings.key, keys))
  return new Map(rows.map((r) => [r.key, r.value]))
}

/** Sets one key; every process drops its cached settings when this commits. */
export async function putSetting(db: Db, key: string, value: unknown): Promise<void> {
  await db
    .insert(siteSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value } })
  await notifyCacheChange(db, SETTINGS_CACHE)
}

/** Removes one key (its default applies again). */
export async function deleteSetting(db: Db, key: string): Promise<void> {
  await db.delete(siteSettings).where(eq(siteSettings.key, key))
}
