// The console's members and money on both databases: finding a member and
// their page, ending a session, credit adjustments (once per client id, even
// 100 at once; never a negative balance; balance == ledger sum; the member's
// app poked), each action with its audit row.
import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { auditLog, creditLedger, sessions } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import type { Poke } from '../contract/index.ts'
import {
  CreditAdjustResponse,
  MemberDetail,
  MemberSearchResponse,
} from '../contract/operator/members.ts'
import { balanceOf, ledgerSum } from '../credits/ledger.ts'
import { createEventBus, type EventBus } from '../events/bus.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { staffSession } from '../test/staff.ts'

describeEngines('console members on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let support: Awaited<ReturnType<typeof staffSession>>

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db })
    support = await staffSession(app, t.db, ['support'])
  })
  afterAll(() => t.close())

  const auditRows = (action: string, targetId: number) =>
    t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(targetId))))
  const adjust = (body: Record<string, unknown>, cookie = support.cookie) =>
    send(app, '/api/operator/credit_adjust.php', { method: 'POST', body, cookie })

  it('finds a member by email, by a part of the name and by id, paged by 20', async () => {
    const m = await addMember(t.db, { name: 'Zerlina Quaxworth', email: 'zerlina@find.example' })
    const find = async (q: string, page?: number) => {
      const res = await send(
        app,
        `/api/operator/members.php?q=${encodeURIComponent(q)}${page ? `&page=${page}` : ''}`,
        { cookie: support.cookie },
      )
      expect(res.status).toBe(200)
      return MemberSearchResponse.parse(await res.json())
    }
    for (const q of ['zerlina@find.example', 'quaxw', String(m.id)]) {
      const found = await find(q)
      expect(found.members[0]?.id, q).toBe(m.id)
    }
    // `%` is a character, not a wildcard.
    expect((await find('%')).members).toEqual([])
    await Promise.all(
      Array.from({ length: 25 }, (_, i) => addMember(t.db, { name: `Pagewise ${i}` })),
    )
    const first = await find('pagewise')
    expect(first.members).toHaveLength(20)
    expect(first.more).toBe(true)
    const second = await find('pagewise', 2)
    expect(second.members).toHaveLength(5)
    expect(second.more).toBe(false)
    const bad = await send(app, '/api/operator/members.php?q=', { cookie: support.cookie })
    expect(bad.status).toBe(400)
    expect((await bad.json()).field).toBe('q')
  })

  it('shows a member’s account, profile, sign-up source, sessions and ledger', async () => {
    const m = await addMember(t.db, {
      name: 'Petra Page',
      country: 'BE',
      language: 'nl',
      personal: 'Hello',
      trafficsource: { network: 'adnet', subid: 's1' },
      signupMeta: { lander: 'summer' },
    })
    await login(app, m.email, TEST_PASSWORD)
    const res = await send(app, `/api/operator/member.php?id=${m.id}`, { cookie: support.cookie })
    expect(res.status).toBe(200)
    const d = MemberDetail.parse(await res.json())
    expect(d.account).toMatchObject({
      id: m.id,
      email: m.email,
      country: 'BE',
      language: 'nl',
      credits: 0,
      deleted: false,
      fictional: false,
      paid_user: false,
    })
    expect(d.profile.personal).toBe('Hello')
    expect(d.signup).toEqual({
      trafficsource: { network: 'adnet', subid: 's1' },
      signup_meta: { lander: 'summer' },
    })
    expect(d.sessions).toHaveLength(1)
    expect(d.ledger).toEqual([])
    expect(d.ledger_sum).toBe(0)
    const unknown = await send(app, '/api/operator/member.php?id=999999999', {
      cookie: support.cookie,
    })
    expect(unknown.status).toBe(404)
  })

  it('ends a member’s session with a reason, audited; the device is signed out', async () => {
    const m = await addMember(t.db)
    const memberCookie = await login(app, m.email, TEST_PASSWORD)
    const [s] = await t.db.select().from(sessions).where(eq(sessions.memberId, m.id))
    const end = (body: Record<string, unknown>) =>
      send(app, '/api/operator/member_session_end.php', {
        method: 'POST',
        body,
        cookie: support.cookie,
      })
    expect((await end({ member_id: m.id, session_id: s?.id })).status).toBe(400)
    const res = await end({ member_id: m.id, session_id: s?.id, reason: 'stolen phone' })
    expect(res.status).toBe(200)
    expect((await send(app, '/api/user.php', { cookie: memberCookie })).status).toBe(403)
    const rows = await auditRows('member.session_end', m.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ staffId: support.id, reason: 'stolen phone' })
    expect((await end({ member_id: m.id, session_id: s?.id, reason: 'again' })).status).toBe(404)
  })

  it('adds credits with a reason: a ledger row naming the staff member, audited, the member poked', async () => {
    const m = await addMember(t.db)
    const bus: EventBus = createEventBus(t.listen)
    await bus.ready()
    const pokes: Poke[] = []
    const leave = bus.subscribe(m.id, (p) => pokes.push(p))
    await bus.ready(m.id)
    try {
      const client = randomUUID()
      const res = await adjust({
        member_id: m.id,
        client_id: client,
        delta: 100,
        reason: 'goodwill',
      })
      expect(res.status).toBe(200)
      expect(CreditAdjustResponse.parse(await res.json())).toEqual({ balance: 100, applied: true })
      const ledger = await t.db.select().from(creditLedger).where(eq(creditLedger.memberId, m.id))
      expect(ledger).toHaveLength(1)
      expect(ledger[0]).toMatchObject({
        delta: 100,
        reason: 'adjustment',
        reference: `staff:${support.id}`,
        balanceAfter: 100,
      })
      const rows = await auditRows('credits.adjust', m.id)
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({ staffId: support.id, reason: 'goodwill' })
      expect(rows[0]?.details).toMatchObject({ delta: 100, balance: 100 })
      await expect.poll(() => pokes).toContainEqual({ type: 'credits' })
    } finally {
      leave()
      await bus.close()
    }
  })

  it('refuses a deduction beyond the balance with 422 on delta, changing nothing', async () => {
    const m = await addMember(t.db)
    await adjust({ member_id: m.id, client_id: randomUUID(), delta: 30, reason: 'start' })
    const client = randomUUID()
    const res = await adjust({ member_id: m.id, client_id: client, delta: -31, reason: 'too much' })
    expect(res.status).toBe(422)
    expect(await res.json()).toMatchObject({ error: 'insufficient_credits', field: 'delta' })
    expect(await balanceOf(t.db, m.id)).toBe(30)
    expect(await auditRows('credits.adjust', m.id)).toHaveLength(1)
    // The refusal kept nothing of the request: its retry is refused the same way.
    expect(
      (await adjust({ member_id: m.id, client_id: client, delta: -31, reason: 'x' })).status,
    ).toBe(422)
    const ok = await adjust({ member_id: m.id, client_id: randomUUID(), delta: -30, reason: 'all' })
    expect(CreditAdjustResponse.parse(await ok.json())).toEqual({ balance: 0, applied: true })
  })

  it('applies 100 concurrent identical requests once', async () => {
    const m = await addMember(t.db)
    const body = { member_id: m.id, client_id: randomUUID(), delta: 100, reason: 'double click' }
    const answers = await Promise.all(Array.from({ length: 100 }, () => adjust(body)))
    const parsed = await Promise.all(
      answers.map(async (r) => {
        expect(r.status).toBe(200)
        return CreditAdjustResponse.parse(await r.json())
      }),
    )
    expect(parsed.filter((p) => p.applied)).toHaveLength(1)
    expect(await balanceOf(t.db, m.id)).toBe(100)
    expect(await ledgerSum(t.db, m.id)).toBe(100)
    const [rows] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(creditLedger)
      .where(eq(creditLedger.memberId, m.id))
    expect(rows?.n).toBe(1)
    expect(await auditRows('credits.adjust', m.id)).toHaveLength(1)
    // A later repeat gets the first answer; the same id for another amount is
    // a client bug (422 client_id_reused), not a second adjustment.
    const again = await adjust(body)
    expect(again.status).toBe(200)
    expect(CreditAdjustResponse.parse(await again.json())).toEqual({ balance: 100, applied: false })
    const reused = await adjust({ ...body, delta: 5 })
    expect(reused.status).toBe(422)
    expect(await reused.json()).toMatchObject({ error: 'client_id_reused', field: 'client_id' })
    expect(await balanceOf(t.db, m.id)).toBe(100)
  })

  it('keeps balance == ledger sum and never negative under random concurrent adjustments', async () => {
    const m = await addMember(t.db)
    // A fixed pseudo-random sequence: the same run on every machine.
    let seed = 20_261_123
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
      return seed
    }
    let applied = 0
    let appliedCount = 0
    for (let round = 0; round < 8; round++) {
      const deltas = Array.from({ length: 10 }, () => {
        const d = (next() % 101) - 60
        return d === 0 ? 1 : d
      })
      const answers = await Promise.all(
        deltas.map((delta) =>
          adjust({ member_id: m.id, client_id: randomUUID(), delta, reason: 'random' }),
        ),
      )
      for (const [i, r] of answers.entries()) {
        if (r.status === 200) {
          applied += deltas[i] as number
          appliedCount++
        } else expect(r.status).toBe(422)
      }
      const balance = await balanceOf(t.db, m.id)
      expect(balance).toBeGreaterThanOrEqual(0)
      expect(await ledgerSum(t.db, m.id)).toBe(balance)
    }
    expect(await balanceOf(t.db, m.id)).toBe(applied)
    expect(await auditRows('credits.adjust', m.id)).toHaveLength(appliedCount)
    const negative = await t.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.memberId, m.id), sql`${creditLedger.balanceAfter} < 0`))
    expect(negative).toEqual([])
  })

  it('refuses adjustments to roles without credits.adjust and bad input with 400', async () => {
    const m = await addMember(t.db)
    const moderator = await staffSession(app, t.db, ['moderator'])
    const body = { member_id: m.id, client_id: randomUUID(), delta: 10, reason: 'x' }
    expect((await adjust(body, moderator.cookie)).status).toBe(403)
    for (const [field, value] of [
      ['delta', 0],
      ['delta', 1.5],
      ['client_id', 'nope'],
      ['reason', ' '],
    ] as const) {
      const res = await adjust({ ...body, [field]: value })
      expect(res.status, field).toBe(400)
      expect((await res.json()).field, field).toBe(field)
    }
    expect((await adjust({ ...body, member_id: 999_999_999 })).status).toBe(404)
  })
})
