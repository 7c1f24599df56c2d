// The fuzzer over the endpoint table (api/test/fuzz.ts): every endpoint gets
// generated valid-shaped and hostile inputs, signed in and not. No answer may
// be a 5xx, every 2xx fits its response schema, and a refused request leaves
// the database as it was. PGlite gets the full run, PostgreSQL a smaller one
// (the suite runs on two cores); bench/fuzz.ts runs 10,000 per endpoint.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { createJobRunner, type JobRunner } from '../jobs/queue.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { FUZZED, fuzz, installChangeCounter, sessionCookie } from '../test/fuzz.ts'
import { addMembers, type MemberRow } from '../test/seed.ts'
import { scaled } from '../test/time-scale.ts'

const PER_ENDPOINT = { pglite: 120, postgres: 30 }

describeEngines('fuzzing the endpoint table on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let jobs: JobRunner
  let members: MemberRow[]
  let media: string

  beforeAll(async () => {
    t = await freshDatabase(engine)
    media = mkdtempSync(join(tmpdir(), 'amora-fuzz-'))
    // Its own job queue, so the fuzzer can wait for the work a request leaves to it.
    jobs = createJobRunner({ db: t.db, handlers: {} })
    app = createApi({ db: t.db, mediaDir: media, jobs })
    members = await addMembers(t.db, [
      { gender: 'male', activatedAt: new Date() },
      { activatedAt: new Date() },
      {},
    ])
    await installChangeCounter(t.db)
  })
  afterAll(async () => {
    rmSync(media, { recursive: true, force: true })
    await t.close()
  })

  it(
    'answers no 5xx, only schema-valid 2xx, and changes nothing when it refuses',
    async () => {
      const stats = await fuzz(app, t.db, {
        perEndpoint: PER_ENDPOINT[engine],
        seed: 20261123,
        ids: members.map((m) => m.id),
        emails: members.map((m) => m.email),
        cookie: () => sessionCookie(t.db, members[0]!.id),
        jobs,
      })
      expect(stats.requests).toBe(FUZZED.length * PER_ENDPOINT[engine])
      // One line per endpoint and problem, with the first request that showed it.
      const distinct = new Map(
        stats.failures.map((f) => [`${f.endpoint}: ${f.problem}`, f.request]),
      )
      expect([...distinct].slice(0, 15)).toEqual([])
      // The inputs reach the handlers: some succeed, some are refused as bad input.
      expect(stats.byStatus['200'] ?? 0).toBeGreaterThan(0)
      expect(stats.byStatus['400'] ?? 0).toBeGreaterThan(0)
    },
    scaled(300_000),
  )
})
