// Spec §7: the body of POST/DELETE /api/likes.php is `profile`. The action id
// is optional: the standard Idempotency-Key header or `client_id` in the
// body, and a request with neither still likes (once: a like is idempotent by
// its effect).
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { likes, memberActions } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMembers, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'

describeEngines('the like contract on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let me: MemberRow
  let others: MemberRow[]
  let cookie: string

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db })
    const rows = await addMembers(t.db, [{ gender: 'male' }, {}, {}, {}, {}, {}])
    me = rows[0]!
    others = rows.slice(1)
    cookie = await login(app, me.email, TEST_PASSWORD)
  })
  afterAll(() => t.close())

  const other = (i: number) => others[i]!.id
  const call = (method: 'POST' | 'DELETE', body: unknown, headers: Record<string, string> = {}) =>
    send(app, '/api/likes.php', { method, body, cookie, headers })
  const liked = async (profile: number) =>
    (
      await t.db
        .select()
        .from(likes)
        .where(and(eq(likes.likerId, me.id), eq(likes.likedId, profile)))
    ).length === 1
  const actions = async (clientId: string) =>
    t.db
      .select()
      .from(memberActions)
      .where(and(eq(memberActions.actorId, me.id), eq(memberActions.clientId, clientId)))

  it('likes and unlikes with the spec’s body alone, `profile`', async () => {
    const res = await call('POST', { profile: other(0) })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ profile: other(0), liked: true })
    expect(await liked(other(0))).toBe(true)
    // Repeated without an id: still the one like (no action record either).
    expect((await call('POST', { profile: other(0) })).status).toBe(200)
    expect(await liked(other(0))).toBe(true)
    expect(await t.db.select().from(memberActions)).toEqual([])
    const undo = await call('DELETE', { profile: other(0) })
    expect(await undo.json()).toEqual({ profile: other(0), liked: false })
    expect(await liked(other(0))).toBe(false)
  })

  it('applies concurrent likes without an id as one like', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call('POST', { profile: other(1) })),
    )
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
    expect(await liked(other(1))).toBe(true)
  })

  it('takes the action id from the Idempotency-Key header and replays it once', async () => {
    const key = randomUUID()
    const headers = { 'Idempotency-Key': key }
    expect((await call('POST', { profile: other(2) }, headers)).status).toBe(200)
    await call('DELETE', { profile: other(2) })
    // A late replay of the like must not bring it back.
    const replay = await call('POST', { profile: other(2) }, headers)
    expect(await replay.json()).toEqual({ profile: other(2), liked: true })
    expect(await liked(other(2))).toBe(false)
    expect(await actions(key)).toHaveLength(1)
    // The same key for another action is refused as a reused id.
    const reused = await call('DELETE', { profile: other(3) }, headers)
    expect(reused.status).toBe(422)
    expect(await reused.json()).toMatchObject({ error: 'client_id_reused' })
  })

  it('treats the header and the same client_id as one key', async () => {
    const key = randomUUID()
    const res = await call(
      'POST',
      { profile: other(3), client_id: key },
      { 'Idempotency-Key': key },
    )
    expect(res.status).toBe(200)
    expect(await actions(key)).toHaveLength(1)
  })

  it('refuses a header that is not a UUID, or one that disagrees with client_id, and changes nothing', async () => {
    const bad = await call('POST', { profile: other(4) }, { 'Idempotency-Key': 'abc' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ error: 'invalid_input', field: 'Idempotency-Key' })
    const clash = await call(
      'POST',
      { profile: other(4), client_id: randomUUID() },
      { 'Idempotency-Key': randomUUID() },
    )
    expect(clash.status).toBe(400)
    expect(await clash.json()).toMatchObject({ error: 'invalid_input', field: 'client_id' })
    expect(await liked(other(4))).toBe(false)
  })
})
