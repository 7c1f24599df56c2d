// The sessions of open event streams checked together
// (api/http/stream-sessions.ts): one statement per period for all of a
// process's streams; a stream whose session ended (logout, expiry, the
// account deleted) is ended by it, the others kept; a failed check ends none.
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Db } from '../../db/client.ts'
import { sessions } from '../../db/schema/index.ts'
import { createApi } from '../app.ts'
import { hashToken } from '../shared/tokens.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login } from '../test/http.ts'
import { countTrips } from '../test/round-trips.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { SESSION_TOUCH_S } from './session.ts'
import { createStreamSessions } from './stream-sessions.ts'

describeEngines('stream sessions on %s', (engine) => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await freshDatabase(engine)
  })
  afterAll(() => database?.close())

  /** A new member signed in: their session's id and last use. */
  async function signedIn() {
    const m = await addMember(database.db)
    const cookie = await login(createApi({ db: database.db }), m.email, TEST_PASSWORD)
    const token = /sid=([^;]+)/.exec(cookie)?.[1] ?? ''
    const [row] = await database.db
      .select({ id: sessions.id, lastSeenAt: sessions.lastSeenAt })
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(token)))
    return { memberId: m.id, ...row! }
  }

  it('checks every watched session in one statement, ending only the streams of ended sessions', async () => {
    const people = await Promise.all([signedIn(), signedIn(), signedIn()])
    const watch = createStreamSessions(database.db, { everyMs: 3_600_000 })
    const ended: number[] = []
    // Two streams (tabs) of the first session, one of each other.
    const stops = [people[0]!, ...people].map((p) => watch.watch(p.id, () => ended.push(p.id)))
    expect(watch.size).toBe(4)
    const live = await countTrips(database.db, () => watch.check())
    expect(live.count).toBe(1)
    expect(ended).toEqual([])
    // The first session ends (logout here or elsewhere); the third member is deleted.
    await database.db.delete(sessions).where(eq(sessions.id, people[0]!.id))
    await database.db.execute(
      sql`UPDATE members SET deleted_at = now() WHERE id = ${people[2]!.memberId}`,
    )
    const after = await countTrips(database.db, () => watch.check())
    expect(after.count).toBe(1)
    expect(ended.sort()).toEqual([people[0]!.id, people[0]!.id, people[2]!.id].sort())
    // Only the second member's stream is left; an ended one is not ended twice.
    expect(watch.size).toBe(1)
    await watch.check()
    expect(ended).toHaveLength(3)
    for (const stop of stops) stop()
    expect(watch.size).toBe(0)
  })

  it('renews the last use of sessions unused for 5 minutes, as a request would', async () => {
    expect(SESSION_TOUCH_S).toBe(300)
    const p = await signedIn()
    const later = new Date(p.lastSeenAt.getTime() + (SESSION_TOUCH_S + 1) * 1000)
    const watch = createStreamSessions(database.db, { everyMs: 3_600_000, now: () => later })
    const stop = watch.watch(p.id, () => {
      throw new Error('a live session was ended')
    })
    await watch.check()
    const [row] = await database.db
      .select({ at: sessions.lastSeenAt })
      .from(sessions)
      .where(eq(sessions.id, p.id))
    expect(row!.at.getTime()).toBe(later.getTime())
    stop()
  })

  it('ends nothing when the check fails (the database away), and says so', async () => {
    const failing = {
      execute: () => Promise.reject(new Error('connection refused')),
    } as unknown as Db
    const lines: string[] = []
    const watch = createStreamSessions(failing, { everyMs: 3_600_000, log: (l) => lines.push(l) })
    let ended = 0
    const stop = watch.watch(1, () => ended++)
    await watch.check()
    expect(ended).toBe(0)
    expect(lines.join('\n')).toContain('connection refused')
    stop()
  })

  it('checks on its own every period while a stream is watched', async () => {
    const p = await signedIn()
    const watch = createStreamSessions(database.db, { everyMs: 20 })
    await database.db.delete(sessions).where(eq(sessions.id, p.id))
    await new Promise<void>((done) => watch.watch(p.id, done))
    expect(watch.size).toBe(0)
  })
})
