// The console's traffic report (per day and traffic source: sign-ups,
// activations, first purchases, revenue per currency), its CSV export
// (injection-safe cells, a file name) and the job queue (retry or discard a
// failed job, audited), on both databases.
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { creditLedger, orders } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { JobsResponse, ReportResponse } from '../contract/operator/sites.ts'
import { AuditResponse } from '../contract/operator/staff.ts'
import { enqueue } from '../jobs/queue.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'
import { addMember } from '../test/seed.ts'
import { staffSession } from '../test/staff.ts'
import { csvCell, reportRange } from './reports.ts'

describe('report rules', () => {
  it('quotes cells a spreadsheet would run as formulas, and CSV specials', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvCell('+1')).toBe("'+1")
    expect(csvCell('-2')).toBe("'-2")
    expect(csvCell('@sum')).toBe("'@sum")
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell(-5)).toBe('-5')
    expect(csvCell(null)).toBe('')
  })

  it('reports the last 30 days by default, at most 366 days, never backwards', () => {
    const now = new Date('2026-03-31T12:00:00Z')
    expect(reportRange({}, now)).toEqual({ from: '2026-03-02', to: '2026-03-31' })
    expect(reportRange({ from: '2026-04-02', to: '2026-04-01' }, now)).toBeNull()
    expect(reportRange({ from: '2025-01-01', to: '2026-01-02' }, now)).toBeNull()
    expect(reportRange({ from: '2025-01-01', to: '2026-01-01' }, now)).toEqual({
      from: '2025-01-01',
      to: '2026-01-01',
    })
  })
})

describeEngines('console reports and jobs on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let admin: string
  let moderator: string

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db })
    admin = (await staffSession(app, t.db, ['admin'])).cookie
    moderator = (await staffSession(app, t.db, ['moderator'])).cookie
    const day1 = new Date('2026-05-01T10:00:00Z')
    const day2 = new Date('2026-05-02T09:00:00Z')
    const a = await addMember(t.db, {
      trafficsource: { network: 'adnet', sub1: '=cmd()', lander: 'beach' },
      signupDate: day1,
      activatedAt: day1,
    })
    await addMember(t.db, {
      trafficsource: { network: 'adnet', sub1: '=cmd()', lander: 'beach' },
      signupDate: day1,
    })
    await addMember(t.db, { signupDate: day2 })
    await t.db.insert(creditLedger).values({
      memberId: a.id,
      delta: 100,
      reason: 'purchase',
      balanceAfter: 100,
      createdAt: day2,
    })
    // What member a spent that day, by action (the ledger's spend kinds).
    const spends: [string, number][] = [
      ['message', 10],
      ['photo', 30],
      ['photo', 30],
      ['unlock', 50],
    ]
    let balance = 200 // the test's ledger rows only: no balance is read
    for (const [reason, credits] of spends) {
      balance -= credits
      await t.db.insert(creditLedger).values({
        memberId: a.id,
        delta: -credits,
        reason,
        balanceAfter: balance,
        createdAt: day2,
      })
    }
    const order = {
      memberId: a.id,
      clientId: '00000000-0000-4000-8000-000000000001',
      packageId: 'small',
      method: 'ideal',
      currency: 'EUR',
      amount: 1999,
      credits: 100,
      provider: 'local',
      grantedAt: day2,
    }
    await t.db.insert(orders).values([
      { ...order, publicId: 'o1', status: 'paid' },
      {
        ...order,
        publicId: 'o2',
        clientId: '00000000-0000-4000-8000-000000000002',
        status: 'refunded',
      },
    ])
  })
  afterAll(() => t.close())

  it('counts sign-ups, activations, first purchases, revenue and credits spent by action per day and source', async () => {
    const res = await send(app, '/api/operator/report.php?from=2026-05-01&to=2026-05-02', {
      cookie: admin,
    })
    expect(res.status).toBe(200)
    const report = ReportResponse.parse(await res.json())
    expect(report.rows).toEqual([
      {
        day: '2026-05-01',
        site: null,
        network: 'adnet',
        sub1: '=cmd()',
        lander: 'beach',
        visits: 0,
        signups: 2,
        activations: 1,
        first_purchases: 0,
        revenue: {},
        spent: {},
      },
      {
        day: '2026-05-02',
        site: null,
        network: null,
        sub1: null,
        lander: null,
        visits: 0,
        signups: 1,
        activations: 0,
        first_purchases: 0,
        revenue: {},
        spent: {},
      },
      {
        day: '2026-05-02',
        site: null,
        network: 'adnet',
        sub1: '=cmd()',
        lander: 'beach',
        visits: 0,
        signups: 0,
        activations: 0,
        first_purchases: 1,
        // The refunded order does not count.
        revenue: { EUR: 1999 },
        // Credits spent by action: the revenue by what members bought.
        spent: { message: 10, photo: 60, unlock: 50 },
      },
    ])
  })

  it('exports the report as a CSV file whose cells cannot run as formulas', async () => {
    const res = await send(app, '/api/operator/report-csv.php?from=2026-05-01&to=2026-05-02', {
      cookie: admin,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="traffic-2026-05-01-2026-05-02.csv"',
    )
    expect(await res.text()).toBe(
      [
        'day,site,network,sub1,lander,visits,signups,activations,first_purchases,revenue_EUR,credits_spent_message,credits_spent_photo,credits_spent_unlock',
        "2026-05-01,,adnet,'=cmd(),beach,0,2,1,0,0,0,0,0",
        '2026-05-02,,,,,0,1,0,0,0,0,0,0',
        "2026-05-02,,adnet,'=cmd(),beach,0,0,0,1,1999,10,60,50",
        '',
      ].join('\r\n'),
    )
  })

  it('refuses a bad date range naming the field, and staff without reports.traffic', async () => {
    const bad = await send(app, '/api/operator/report.php?from=2026-13', { cookie: admin })
    expect([bad.status, ((await bad.json()) as { field: string }).field]).toEqual([400, 'from'])
    const back = await send(app, '/api/operator/report.php?from=2026-05-02&to=2026-05-01', {
      cookie: admin,
    })
    expect(back.status).toBe(400)
    const forbidden = await send(app, '/api/operator/report-csv.php', { cookie: moderator })
    expect(forbidden.status).toBe(403)
  })

  it('lists failed jobs with their last error; an operator retries or discards one, audited', async () => {
    await enqueue(t.db, { kind: 'test.a', payload: { n: 1 } })
    await enqueue(t.db, { kind: 'test.b' })
    await t.db.execute(
      // Two jobs that ran out of attempts, as the runner leaves them.
      sql`UPDATE jobs SET status = 'failed', attempts = max_attempts, last_error = 'boom' WHERE kind IN ('test.a', 'test.b')`,
    )
    const list = JobsResponse.parse(
      await (await send(app, '/api/operator/jobs.php', { cookie: admin })).json(),
    )
    expect(list.failed.map((j) => [j.kind, j.last_error])).toEqual([
      ['test.b', 'boom'],
      ['test.a', 'boom'],
    ])
    const [b, a] = list.failed
    const retried = await send(app, '/api/operator/jobs.php', {
      method: 'POST',
      body: { id: a!.id, action: 'retry', reason: 'fixed the mail server' },
      cookie: admin,
    })
    const after = JobsResponse.parse(await retried.json())
    expect(after.queued.map((j) => [j.kind, j.attempts])).toEqual([['test.a', 0]])
    const discarded = await send(app, '/api/operator/jobs.php', {
      method: 'POST',
      body: { id: b!.id, action: 'discard' },
      cookie: admin,
    })
    expect(JobsResponse.parse(await discarded.json()).failed).toEqual([])
    // Only a failed job: the queued one is the runner's.
    const again = await send(app, '/api/operator/jobs.php', {
      method: 'POST',
      body: { id: a!.id, action: 'discard' },
      cookie: admin,
    })
    expect(again.status).toBe(404)
    const { entries } = AuditResponse.parse(
      await (await send(app, '/api/operator/audit.php?target_type=job', { cookie: admin })).json(),
    )
    expect(entries.map((e) => [e.action, e.target_id, e.reason])).toEqual([
      ['job.discard', String(b!.id), null],
      ['job.retry', String(a!.id), 'fixed the mail server'],
    ])
    expect(entries[1]?.details).toMatchObject({
      before: { status: 'failed', last_error: 'boom' },
      after: { status: 'queued', attempts: 0 },
    })
    expect(entries[0]?.details).toMatchObject({ before: { kind: 'test.b' }, after: null })
    const bad = await send(app, '/api/operator/jobs.php', {
      method: 'POST',
      body: { id: a!.id, action: 'delete' },
      cookie: admin,
    })
    expect([bad.status, ((await bad.json()) as { field: string }).field]).toEqual([400, 'action'])
  })
})
