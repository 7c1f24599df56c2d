// Several API processes starting at once on one empty PostgreSQL database
// (docs/several-machines.md): each opens the database (the migrations), seeds
// the demo and makes the first staff, and none may fail because another did
// the same at the same moment. Each "process" here is a database handle of its
// own (its own pool, so its own connections), all started together. The
// browser-free end-to-end run of two real `npm start`s is e2e/several-processes.e2e.ts.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { count, eq, sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { diskStore } from '../api/images/storage.ts'
import { ensureDemoStaff, ensureFirstAdmin } from '../api/operator/first-start.ts'
import { rowsOf } from '../api/shared/rows.ts'
import { emptyPostgresDatabase } from '../api/test/databases.ts'
import { type Database, openDatabase } from '../db/client.ts'
import { members, staff } from '../db/schema/index.ts'
import { DEMO_EMAIL } from '../db/seed/people.ts'
import { SECOND_DEMO_EMAIL } from '../db/seed/second-demo.ts'
import { seedDemo } from '../db/seed/seed.ts'

const PROCESSES = 4
const DEMO_MEMBERS = 12
// A stand-in for argon2: the seed only stores what it is given.
const hashPassword = async (pw: string) => `test-hash:${pw}`

const journal = JSON.parse(
  await readFile(new URL('../db/migrations/meta/_journal.json', import.meta.url), 'utf8'),
) as { entries: { tag: string }[] }

/** What went wrong, with the database's own words (drizzle wraps them in `cause`). */
const outcome = (s: PromiseSettledResult<unknown>) =>
  s.status === 'fulfilled'
    ? 'ok'
    : String((s.reason as { cause?: unknown }).cause ?? s.reason).slice(0, 300)

const suite = process.env.DATABASE_URL ? describe : describe.skip

suite(`${PROCESSES} processes starting at once on one empty PostgreSQL database${process.env.DATABASE_URL ? '' : ' (set DATABASE_URL to run it)'}`, () => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterEach(async () => {
    // Handles first: the database is dropped once nobody is connected.
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  /** An empty database and `PROCESSES` handles opened on it at the same moment. */
  async function openTogether(): Promise<Database[]> {
    const empty = await emptyPostgresDatabase()
    cleanups.push(empty.drop)
    const opened = await Promise.allSettled(
      Array.from({ length: PROCESSES }, () => openDatabase({ kind: 'postgres', url: empty.url })),
    )
    for (const o of opened) if (o.status === 'fulfilled') cleanups.push(() => o.value.close())
    // Every handle opened: none lost a race with another's migrations.
    expect(opened.map(outcome)).toEqual(opened.map(() => 'ok'))
    return opened.map((o) => (o as PromiseFulfilledResult<Database>).value)
  }

  it('migrates the database once, and every handle opens', async () => {
    const [first] = await openTogether()
    const rows = await rowsOf(
      first!.db,
      sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`,
      z.object({ n: z.number() }),
    )
    expect(rows[0]?.n).toBe(journal.entries.length)
    // The schema is there: the members table answers.
    const [row] = await first!.db.select({ n: count() }).from(members)
    expect(row?.n).toBe(0)
  })

  it('seeds the demo once: the others see it done and skip', async () => {
    const handles = await openTogether()
    const mediaDir = await mkdtemp(join(tmpdir(), 'concurrent-seed-'))
    cleanups.push(() => rm(mediaDir, { recursive: true, force: true }))
    const seeded = await Promise.allSettled(
      handles.map((h) =>
        seedDemo(h.db, {
          pictures: diskStore(mediaDir),
          members: DEMO_MEMBERS,
          hashPassword,
          secondDemo: true,
        }),
      ),
    )
    expect(seeded.map(outcome)).toEqual(seeded.map(() => 'ok'))
    const results = seeded.map((s) => (s as PromiseFulfilledResult<{ demoMemberId: number }>).value)
    // One demo member, the same one for every process.
    expect(new Set(results.map((r) => r.demoMemberId)).size).toBe(1)
    const db = handles[0]!.db
    for (const email of [DEMO_EMAIL, SECOND_DEMO_EMAIL]) {
      const [row] = await db.select({ n: count() }).from(members).where(eq(members.email, email))
      expect(row?.n, email).toBe(1)
    }
    // The demo, the second demo login and the generated members: once each.
    const [all] = await db.select({ n: count() }).from(members)
    expect(all?.n).toBe(DEMO_MEMBERS + 2)
  })

  it('makes the first staff once, whatever each process was told', async () => {
    const handles = await openTogether()
    const lines: string[] = []
    // Each process with its own OPERATOR_EMAIL: still only one first admin.
    const made = await Promise.allSettled(
      handles.map((h, i) =>
        ensureFirstAdmin(h.db, `admin${i}@localhost`, (l) => lines.push(l), 'Console'),
      ),
    )
    expect(made.map(outcome)).toEqual(made.map(() => 'ok'))
    const [admins] = await handles[0]!.db.select({ n: count() }).from(staff)
    expect(admins?.n).toBe(1)
    expect(lines.filter((l) => l.includes('first console admin'))).toHaveLength(1)

    // The demo's staff: every process prints the same secrets, each account exists once.
    const printed = handles.map(() => [] as string[])
    const demo = await Promise.allSettled(
      handles.map((h, i) => ensureDemoStaff(h.db, (l) => printed[i]!.push(l), 'Console (demo)')),
    )
    expect(demo.map(outcome)).toEqual(demo.map(() => 'ok'))
    const [total] = await handles[0]!.db.select({ n: count() }).from(staff)
    expect(total?.n).toBe(1 + 5)
    for (const lines of printed) expect(lines).toEqual(printed[0])
  })
})
