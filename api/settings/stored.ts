// Values a domain keeps in site_settings outside the public Settings
// (settings.ts reads known keys only): a secret generated once (the age
// verifier's key, the VAPID keys) under a `secret.` key, and a value the
// operator sets whose rule is another domain's (the message cost, the
// ledger's).
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { siteSettings } from '../../db/schema/index.ts'

/**
 * The value stored under `key` (a `secret.` key), or `make()`'s, stored first
 * when there was none. Two processes starting at once: the first insert wins
 * and both answer the stored value. `valid` tells a usable stored value from
 * a missing or broken one; a broken one is kept and the answer is undefined.
 */
export async function keptSecret<T>(
  db: Db,
  key: `secret.${string}`,
  make: () => T,
  valid: (value: unknown) => value is T,
): Promise<T | undefined> {
  const read = async () => {
    const [row] = await db.select().from(siteSettings).where(eq(siteSettings.key, key))
    return row?.value
  }
  const found = await read()
  if (valid(found)) return found
  await db.insert(siteSettings).values({ key, value: make() }).onConflictDoNothing()
  const stored = await read()
  return valid(stored) ? stored : undefined
}

/** The raw value stored under `key`, or undefined when none is (the owner of the rule checks its shape). */
export async function storedValue(db: Db, key: string): Promise<unknown> {
  const [row] = await db
    .select({ value: siteSettings.value })
    .from(siteSettings)
    .where(eq(siteSettings.key, key))
  return row?.value
}
