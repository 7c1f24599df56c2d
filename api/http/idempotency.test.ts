// The one idempotency rule (api/http/idempotency.ts) in each of its forms, on
// both databases: a client id is applied at most once per actor (a member or
// a staff member), a replay gets the first answer and changes nothing, the id
// reused for another action is 422 client_id_reused, identical requests at
// once apply once, and an action with a step outside the database
// (beginOnce) answers a replay that races it with its first answer. Each
// caller's own suite proves the same on its endpoint: likes
// (api/likes/likes.test.ts), messages (api/chats/messages.test.ts), orders
// (api/payments/payments.test.ts), credit adjustments
// (api/operator/members.test.ts) and refunds (api/operator/refunds.test.ts).
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { addMember } from '../test/seed.ts'
import { addStaff } from '../test/staff.ts'
import { ApiFailure } from './errors.ts'
import { abandonOnce, applyOnce, beginOnce, finishOnce, replayOf, runOnce } from './idempotency.ts'

const Answer = z.object({ n: z.number() })

const failureOf = (e: unknown) =>
  e instanceof ApiFailure ? { status: e.status, error: e.code, field: e.field } : e

describeEngines('one idempotency rule on %s', (engine) => {
  let database: TestDatabase
  let memberId: number
  let staffId: number

  beforeAll(async () => {
    database = await freshDatabase(engine)
    memberId = (await addMember(database.db)).id
    staffId = (await addStaff(database.db, ['finance'])).id
  })
  afterAll(() => database?.close())

  describe('applyOnce', () => {
    for (const actor of ['member', 'staff'] as const) {
      it(`applies a ${actor}'s id once: a replay gets the first answer, marked as one`, async () => {
        const who = actor === 'member' ? { memberId } : { staffId }
        const key = { ...who, clientId: randomUUID(), kind: 'test:count' }
        let runs = 0
        const effect = async () => ({ n: ++runs })
        const answers = await Promise.all(
          Array.from({ length: 3 }, () => applyOnce(database.db, key, Answer, effect)),
        )
        expect(runs).toBe(1)
        expect(answers.filter((a) => !a.replay)).toEqual([{ answer: { n: 1 }, replay: false }])
        expect(await applyOnce(database.db, key, Answer, effect)).toEqual({
          answer: { n: 1 },
          replay: true,
        })
        const reused = await applyOnce(database.db, { ...key, kind: 'test:other' }, Answer, effect)
          .then(() => 'applied')
          .catch(failureOf)
        expect(reused).toEqual({ status: 422, error: 'client_id_reused', field: 'client_id' })
        expect(runs).toBe(1)
      })
    }

    it('keeps the ids of members and staff apart (the same number and id are two actions)', async () => {
      const clientId = randomUUID()
      const m = await runOnce(database.db, { memberId: staffId, clientId, kind: 'a' }, Answer, () =>
        Promise.resolve({ n: 1 }),
      )
      const s = await runOnce(database.db, { staffId, clientId, kind: 'b' }, Answer, () =>
        Promise.resolve({ n: 2 }),
      )
      expect([m, s]).toEqual([{ n: 1 }, { n: 2 }])
    })
  })

  describe('beginOnce', () => {
    it('answers a replay racing a running action with its first answer', async () => {
      const key = { staffId, clientId: randomUUID(), kind: 'test:outside' }
      const begun = await beginOnce(database.db, key, Answer, async () => 'started')
      expect(begun).toEqual({ started: 'started' })
      // The outside step still runs: a replay waits for the answer.
      const replay = replayOf(database.db, key, Answer)
      const again = beginOnce(database.db, key, Answer, async () => 'twice')
      await finishOnce(database.db, key, { n: 5 })
      expect(await replay).toEqual({ n: 5 })
      expect(await again).toEqual({ replay: { n: 5 } })
      const reused = await replayOf(database.db, { ...key, kind: 'test:else' }, Answer).catch(
        failureOf,
      )
      expect(reused).toEqual({ status: 422, error: 'client_id_reused', field: 'client_id' })
    })

    it('gives the id back when the outside step failed, so it can be tried again', async () => {
      const key = { memberId, clientId: randomUUID(), kind: 'test:abandon' }
      expect(await beginOnce(database.db, key, Answer, async () => 1)).toEqual({ started: 1 })
      await abandonOnce(database.db, key)
      expect(await replayOf(database.db, key, Answer)).toBeNull()
      expect(await beginOnce(database.db, key, Answer, async () => 2)).toEqual({ started: 2 })
      // An answered id is never given back.
      await finishOnce(database.db, key, { n: 2 })
      await abandonOnce(database.db, key)
      expect(await replayOf(database.db, key, Answer)).toEqual({ n: 2 })
    })
  })
})
