// The push-event job row built in SQL (event-job-sql.ts) is what the job's
// handler parses (events.ts PushEventJob): for every kind of event, the
// payload the database builds has exactly the schema's keys, with the
// caller's values, and the insert makes one job per event whatever the
// number of attempts.
import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { z } from 'zod'
import { jobs, pushSubscriptions } from '../../db/schema/index.ts'
import { rowsOf } from '../shared/rows.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { addMember, type MemberRow } from '../test/seed.ts'
import { type PushEventSql, pushEventJobSql, pushEventPayloadSql } from './event-job-sql.ts'
import { PUSH_EVENT_JOB, PushEventJob } from './events.ts'

/** Every key path of a JSON value (`event.from.id`), sorted. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [prefix]
  return Object.entries(value)
    .flatMap(([k, v]) => keyPaths(v, prefix ? `${prefix}.${k}` : k))
    .sort()
}

const events: Record<PushEventSql['kind'], PushEventSql> = {
  message: {
    kind: 'message',
    from: sql`7::bigint`,
    conversation: sql`11::bigint`,
    text: sql`${"Hoi 'daar'"}::text`,
    message: sql`13::bigint`,
  },
  like: { kind: 'like', from: sql`7::bigint` },
  visit: { kind: 'visit', from: sql`7::bigint`, visit: sql`17::bigint` },
}

const expected: Record<PushEventSql['kind'], PushEventJob> = {
  message: {
    memberId: 5,
    event: {
      kind: 'message',
      from: { id: 7, name: '' },
      conversation: 11,
      text: "Hoi 'daar'",
      message: 13,
      photo: false,
      voice: false,
    },
  },
  like: { memberId: 5, event: { kind: 'like', from: { id: 7, name: '' } } },
  visit: { memberId: 5, event: { kind: 'visit', from: { id: 7, name: '' }, visit: 17 } },
}

describeEngines('push-event job SQL on %s', (engine) => {
  let database: TestDatabase
  let member: MemberRow
  let other: MemberRow

  beforeAll(async () => {
    database = await freshDatabase(engine)
    member = await addMember(database.db, { name: 'Eva' })
    other = await addMember(database.db, { name: 'Olaf' })
  })
  afterAll(() => database?.close())

  for (const kind of ['message', 'like', 'visit'] as const) {
    it(`builds a ${kind} event with exactly the schema's keys`, async () => {
      const [row] = await rowsOf(
        database.db,
        sql`SELECT ${pushEventPayloadSql(sql`5::bigint`, events[kind])} AS payload`,
        z.object({ payload: z.unknown() }),
      )
      const payload = row?.payload
      // The handler's schema takes it as it is (zod drops unknown keys, so
      // equality also says there are none) ...
      expect(PushEventJob.parse(payload)).toEqual(payload)
      expect(payload).toEqual(expected[kind])
      // ... and the key paths are the schema's for this kind, optional ones included.
      expect(keyPaths(payload)).toEqual(keyPaths(expected[kind]))
    })
  }

  it('enqueues one job per event, only for a member with a device', async () => {
    const insert = (to: MemberRow, where?: ReturnType<typeof sql>) =>
      rowsOf(
        database.db,
        sql`WITH src AS (SELECT 1 AS one), push AS (${pushEventJobSql({
          memberId: sql`${to.id}::bigint`,
          event: { kind: 'visit', from: sql`${other.id}::bigint`, visit: sql`4242::bigint` },
          from: sql`src`,
          ...(where ? { where } : {}),
        })}) SELECT id FROM push`,
        z.object({ id: z.unknown() }),
      )
    // No device: nothing.
    expect(await insert(member)).toHaveLength(0)
    await database.db.insert(pushSubscriptions).values({
      memberId: member.id,
      endpoint: `https://push.example/${randomUUID()}`,
      p256dh: 'BKey',
      auth: 'auth',
    })
    // The caller's own condition counts too.
    expect(await insert(member, sql`false`)).toHaveLength(0)
    expect(await insert(member)).toHaveLength(1)
    // The same event again: the dedupe key keeps it at one.
    expect(await insert(member)).toHaveLength(0)
    const made = await database.db.select().from(jobs).where(eq(jobs.kind, PUSH_EVENT_JOB))
    expect(made.map((j) => [j.payload, j.dedupeKey])).toEqual([
      [
        {
          memberId: member.id,
          event: { kind: 'visit', from: { id: other.id, name: '' }, visit: 4242 },
        },
        'push-event:visit:4242',
      ],
    ])
  })
})
