// Whether the database has this build's migrations (GET /readyz). drizzle's
// migrator records each applied migration in drizzle.__drizzle_migrations
// with created_at = the `when` of its entry in the journal, on PostgreSQL and
// PGlite alike; the newest entry of this build's journal must be there.
import { readFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { z } from 'zod'
import { type Db, hasPgCode } from './client.ts'

interface Journal {
  entries: { tag: string; when: number }[]
}

const LatestRows = z.object({
  rows: z.array(z.object({ latest: z.union([z.string(), z.number(), z.bigint(), z.null()]) })),
})

let newest: { tag: string; when: number } | undefined

/** The newest migration of this build (db/migrations/meta/_journal.json), read once. */
export function latestMigration(): { tag: string; when: number } {
  if (!newest) {
    const journal = JSON.parse(
      readFileSync(new URL('./migrations/meta/_journal.json', import.meta.url), 'utf8'),
    ) as Journal
    const last = journal.entries.at(-1)
    if (!last) throw new Error('db/migrations/meta/_journal.json lists no migration')
    newest = { tag: last.tag, when: last.when }
  }
  return newest
}

/**
 * Whether the newest migration of this build is applied. A database ahead of
 * the build (a newer release migrated it) counts as applied: migrations only
 * add to what an older release uses.
 */
export async function migrationsApplied(db: Db): Promise<{ ok: boolean; detail: string }> {
  const expected = latestMigration()
  let applied: number | null
  try {
    // created_at is a bigint: node-postgres answers a string, PGlite a number.
    const { rows } = LatestRows.parse(
      await db.execute(sql`SELECT max(created_at) AS latest FROM drizzle.__drizzle_migrations`),
    )
    const latest = rows[0]?.latest
    applied = latest === null || latest === undefined ? null : Number(latest)
  } catch (e) {
    // 42P01: no migrations table, nothing was ever migrated here.
    if (hasPgCode(e, '42P01')) return { ok: false, detail: 'no migration applied' }
    throw e
  }
  if (applied === null) return { ok: false, detail: 'no migration applied' }
  return applied >= expected.when
    ? { ok: true, detail: `up to ${expected.tag}` }
    : { ok: false, detail: `${expected.tag} not applied yet` }
}
