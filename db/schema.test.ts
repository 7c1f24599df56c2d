// The schema is the truth: db/schema/ declares every table, column, default,
// key, check and index, and the migrations in db/migrations must build exactly
// that. Two checks keep them together:
// - drizzle-kit's own diff: `drizzle-kit generate` against the migrations'
//   snapshots finds nothing to write (so `npm run db:generate` after a schema
//   change writes only that change);
// - the database itself: one migrated by the app's migrations (db/client.ts)
//   and one built from the schema alone (`drizzle-kit export`) have the same
//   catalog.
import { execFile } from 'node:child_process'
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const migrations = fileURLToPath(new URL('./migrations', import.meta.url))
const schemaIndex = fileURLToPath(new URL('./schema/index.ts', import.meta.url))
const drizzleKit = fileURLToPath(new URL('../node_modules/drizzle-kit/bin.cjs', import.meta.url))

/**
 * What drizzle cannot declare, made by the migrations alone: the append-only
 * trigger of audit_log with its function (0013_staff.sql), the storage
 * parameters of members (0003_members_autovacuum.sql), the triggers that
 * keep members.public_seen_at with their functions (0027_last-seen.sql,
 * docs/live.md) and those that keep members.public_active_at
 * (0029_public-activity.sql, docs/search.md). A new one belongs here only if
 * drizzle has no way to say it.
 */
const MIGRATION_ONLY = [
  'function audit_log_append_only',
  'function member_public_active',
  'function member_public_seen',
  'function members_public_active',
  'function members_public_seen',
  'function privacy_public_active',
  'function privacy_public_seen',
  'function sessions_public_seen',
  'reloptions members autovacuum_vacuum_scale_factor=0.005,autovacuum_vacuum_threshold=1000',
  'trigger audit_log.audit_log_no_change CREATE TRIGGER audit_log_no_change BEFORE DELETE OR UPDATE OR TRUNCATE ON public.audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()',
  'trigger member_privacy.privacy_public_active CREATE TRIGGER privacy_public_active AFTER INSERT OR UPDATE OF hide_online ON public.member_privacy FOR EACH ROW EXECUTE FUNCTION privacy_public_active()',
  'trigger member_privacy.privacy_public_seen CREATE TRIGGER privacy_public_seen AFTER INSERT OR UPDATE OF hide_online ON public.member_privacy FOR EACH ROW EXECUTE FUNCTION privacy_public_seen()',
  'trigger members.members_public_active CREATE TRIGGER members_public_active BEFORE INSERT OR UPDATE OF last_active_at, signup_date ON public.members FOR EACH ROW EXECUTE FUNCTION members_public_active()',
  'trigger members.members_public_seen CREATE TRIGGER members_public_seen BEFORE INSERT OR UPDATE OF last_active_at ON public.members FOR EACH ROW EXECUTE FUNCTION members_public_seen()',
  'trigger sessions.sessions_public_seen CREATE TRIGGER sessions_public_seen AFTER INSERT OR UPDATE OF last_seen_at ON public.sessions FOR EACH ROW EXECUTE FUNCTION sessions_public_seen()',
]

let dir: string

/** Runs drizzle-kit in the temporary directory, on a copy of the migrations. */
async function drizzleKitRun(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(
    process.execPath,
    [drizzleKit, ...args, '--config', 'drizzle.config.ts'],
    // No stdin: a question (a rename?) would otherwise wait forever.
    { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
  )
}

/** The files of the copied migrations folder, by path. */
async function migrationFiles(): Promise<string[]> {
  return (await readdir(join(dir, 'migrations'), { recursive: true })).sort()
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schema-check-'))
  await cp(migrations, join(dir, 'migrations'), { recursive: true })
  // drizzle-kit reads `out` relative to its working directory.
  await writeFile(
    join(dir, 'drizzle.config.ts'),
    `export default ${JSON.stringify({ dialect: 'postgresql', schema: schemaIndex, out: './migrations' })}\n`,
  )
})

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('the schema and the migrations', () => {
  it('drizzle-kit generate finds nothing to migrate', async () => {
    const before = await migrationFiles()
    const journal = await readFile(join(dir, 'migrations/meta/_journal.json'), 'utf8')
    const { stdout, stderr } = await drizzleKitRun('generate')
    const added = (await migrationFiles()).filter((name) => !before.includes(name))
    // On a difference the new migration's SQL shows here: what the schema has
    // and the migrations lack (or the other way round).
    const addedSql = await Promise.all(
      added
        .filter((name) => name.endsWith('.sql'))
        .map(async (name) => `${name}:\n${await readFile(join(dir, 'migrations', name), 'utf8')}`),
    )
    expect(addedSql).toEqual([])
    expect(added).toEqual([])
    expect(await readFile(join(dir, 'migrations/meta/_journal.json'), 'utf8')).toBe(journal)
    // drizzle-kit exits 0 on its own errors too: the message is the proof it compared.
    expect(`${stdout}\n${stderr}`).toContain('No schema changes, nothing to migrate')
  })

  it('a database migrated by the app has exactly the schema the drizzle schema declares', async () => {
    // The schema's SQL on stdout; drizzle-kit runs while PGlite starts.
    const exported = drizzleKitRun('export', '--sql')
    // Migrated as db/client.ts does it: drizzle's migrator on db/migrations.
    const client = new PGlite()
    try {
      await migrate(drizzle(client), { migrationsFolder: migrations })
      const fromMigrations = await catalog(client)
      // The same database again, built from the schema alone.
      await client.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;')
      await client.exec((await exported).stdout)
      const fromSchema = await catalog(client)
      // Sanity: the comparison sees the whole schema.
      expect(fromSchema.tables.length).toBeGreaterThan(30)
      expect(fromSchema.constraints).toContain(
        'members members_credits_not_negative CHECK ((credits >= 0))',
      )
      expect(fromSchema.extras).toEqual([])
      // One comparison, so that a failure lists every difference at once.
      expect(fromMigrations).toEqual({ ...fromSchema, extras: MIGRATION_ONLY })
    } finally {
      await client.close()
    }
  })
})

/**
 * The public schema as sorted lines, one per table, column, constraint, index,
 * sequence and view, and what drizzle cannot declare (functions, triggers,
 * storage parameters).
 */
async function catalog(client: PGlite) {
  // Each query returns one text column, `line`.
  const lines = async (query: string) =>
    (await client.query<{ line: string }>(query)).rows.map((r) => r.line).sort()
  return {
    tables: await lines(`
      SELECT concat_ws(' ', c.relname, c.relkind) AS line
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm', 'p', 'f')`),
    columns: await lines(`
      SELECT concat_ws(' ',
        c.relname || '.' || a.attname,
        format_type(a.atttypid, a.atttypmod),
        CASE WHEN a.attnotnull THEN 'not null' ELSE 'null' END,
        'default ' || pg_get_expr(d.adbin, d.adrelid),
        CASE a.attidentity WHEN 'a' THEN 'identity always' WHEN 'd' THEN 'identity by default' END,
        CASE a.attgenerated WHEN 's' THEN 'generated stored' END) AS line
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v') AND a.attnum > 0
        AND NOT a.attisdropped`),
    constraints: await lines(`
      SELECT concat_ws(' ', c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid)) AS line
      FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE n.nspname = 'public'`),
    indexes: await lines(`SELECT indexdef AS line FROM pg_indexes WHERE schemaname = 'public'`),
    sequences: await lines(`
      SELECT concat_ws(' ', sequencename, data_type, start_value, min_value, max_value,
        increment_by, cycle, cache_size) AS line
      FROM pg_sequences WHERE schemaname = 'public'`),
    views: await lines(`
      SELECT viewname || ' ' || definition AS line
      FROM pg_views WHERE schemaname = 'public'`),
    extras: await lines(`
      SELECT 'function ' || p.proname AS line
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'public'
      UNION ALL
      SELECT 'trigger ' || c.relname || '.' || t.tgname || ' ' || pg_get_triggerdef(t.oid)
      FROM pg_trigger t
      JOIN pg_class c ON c.oid = t.tgrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND NOT t.tgisinternal
      UNION ALL
      SELECT 'reloptions ' || c.relname || ' ' || array_to_string(c.reloptions, ',')
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.reloptions IS NOT NULL`),
  }
}
