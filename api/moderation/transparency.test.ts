// Statements of reasons to the DSA Transparency Database (Art. 24(5)), on
// both databases, against a local stand-in of its API started here (it checks
// the bearer token and the required fields): a moderator's decision queues its
// statement; the job submits it once with the fields the database requires;
// failures are retried by the queue and recorded; a wrong token keeps failing
// and ends `failed`; a replay after a lost answer counts as submitted; with no
// token nothing is queued; the console lists each submission's state.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { jobs as jobsTable, sanctions, transparencySubmissions } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { TransparencyResponse } from '../contract/operator/moderation.ts'
import { createJobRunner, type JobRunner } from '../jobs/queue.ts'
import { createMailer } from '../mail/mailer.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { staffSession } from '../test/staff.ts'
import {
  startTransparencyFake,
  statementErrors,
  type TransparencyFake,
} from '../test/transparency-fake.ts'
import {
  queueTransparency,
  statementBody,
  TRANSPARENCY_SUBMIT,
  transparencyJobs,
} from './transparency.ts'

describeEngines('DSA Transparency Database submissions on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let jobs: JobRunner
  let fake: TransparencyFake
  let moderator: Awaited<ReturnType<typeof staffSession>>
  let finance: Awaited<ReturnType<typeof staffSession>>

  beforeAll(async () => {
    fake = await startTransparencyFake()
    process.env.TRANSPARENCY_DB_URL = fake.url
    process.env.TRANSPARENCY_DB_TOKEN = fake.token
    t = await freshDatabase(engine)
    jobs = createJobRunner({ db: t.db, handlers: {} })
    app = createApi({
      db: t.db,
      jobs,
      accounts: {
        mailer: createMailer({ devListing: true }),
        trustProxy: false,
        publicUrl: undefined,
      },
    })
    moderator = await staffSession(app, t.db, ['moderator'])
    finance = await staffSession(app, t.db, ['finance'])
  })
  afterAll(async () => {
    await jobs?.stop()
    await t?.close()
    await fake?.close()
    delete process.env.TRANSPARENCY_DB_URL
    delete process.env.TRANSPARENCY_DB_TOKEN
  })

  /** A member reported by another and suspended by a moderator: the sanction's id. */
  async function suspended(): Promise<number> {
    const [reporter, reported] = [await addMember(t.db), await addMember(t.db)]
    const cookie = await login(app, reporter.email, TEST_PASSWORD)
    const filed = await send(app, '/api/reports.php', {
      method: 'POST',
      cookie,
      body: { profile: reported.id, reason: 'scam', text: 'Asks everyone for money.' },
    })
    expect(filed.status).toBe(201)
    const id = ((await filed.json()) as { report: { id: number } }).report.id
    const res = await send(app, '/api/operator/decide.php', {
      method: 'POST',
      cookie: moderator.cookie,
      body: {
        type: 'report',
        id,
        action: 'suspend',
        rule: 'spam_scam',
        reason: 'Sent the same payment request to many members.',
        days: 7,
      },
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as { sanction: { id: number } }).sanction.id
  }

  const submission = async (sanctionId: number) =>
    (
      await t.db
        .select()
        .from(transparencySubmissions)
        .where(eq(transparencySubmissions.sanctionId, sanctionId))
    )[0]

  /** Runs the due jobs, making every retry of the submission job due at once. */
  const runAll = async () => {
    for (let i = 0; i < 30; i++) {
      await t.db
        .update(jobsTable)
        .set({ runAt: new Date(0) })
        .where(eq(jobsTable.kind, TRANSPARENCY_SUBMIT))
      if ((await jobs.runDue()) === 0) return
    }
  }

  it('a decision queues its statement; the job submits it once, with the required fields and no personal data', async () => {
    const id = await suspended()
    expect(await submission(id)).toMatchObject({ status: 'queued', attempts: 0 })
    await runAll()
    const row = await submission(id)
    expect(row).toMatchObject({ status: 'submitted', attempts: 1, lastError: null })
    expect(row?.remoteId).toMatch(/^[0-9a-f-]{36}$/)
    const sent = fake.statements.get(`sanction-${id}`)
    expect(sent).toMatchObject({
      decision_ground: 'DECISION_GROUND_INCOMPATIBLE_CONTENT',
      decision_account: 'DECISION_ACCOUNT_SUSPENDED',
      category: 'STATEMENT_CATEGORY_SCAMS_AND_FRAUD',
      source_type: 'SOURCE_ARTICLE_16',
      automated_decision: 'AUTOMATED_DECISION_NOT_AUTOMATED',
    })
    expect(JSON.stringify(sent)).not.toContain('payment request')
    await runAll()
    expect(fake.calls.filter((c) => c.status === 201)).toHaveLength(1)
  })

  it('every kind of sanction makes a statement the database accepts', () => {
    const base = {
      id: 1,
      memberId: 1,
      reason: 'x',
      itemType: 'report',
      itemId: 1,
      startsAt: new Date('2026-06-19T10:00:00Z'),
      endsAt: new Date('2026-06-26T10:00:00Z'),
      staffId: 1,
      appealTokenHash: 'h',
      liftedAt: null,
      liftedBy: null,
    }
    for (const kind of ['warn', 'suspend', 'ban', 'remove_photo', 'remove_text'])
      for (const rule of [
        'harassment',
        'spam_scam',
        'fake_profile',
        'explicit_content',
        'underage',
        'other',
      ])
        expect(statementErrors(statementBody({ ...base, kind, rule })), `${kind} ${rule}`).toEqual(
          {},
        )
  })

  it('a failing database is retried with the queue’s backoff and the errors are recorded', async () => {
    fake.failNext(2)
    const id = await suspended()
    await jobs.runDue()
    const first = await submission(id)
    expect(first).toMatchObject({ status: 'queued', attempts: 1 })
    expect(first?.lastError).toContain('HTTP 500')
    const [job] = await t.db
      .select()
      .from(jobsTable)
      .where(eq(jobsTable.dedupeKey, `${TRANSPARENCY_SUBMIT}:${id}`))
    expect(job?.status).toBe('queued')
    expect(job?.runAt.getTime()).toBeGreaterThan(Date.now())
    await runAll()
    expect(await submission(id)).toMatchObject({
      status: 'submitted',
      attempts: 3,
      lastError: null,
    })
  })

  it('a wrong token is refused every time and the submission ends failed', async () => {
    // Queued straight from a sanction row, so only the runner below (with its wrong token) sends it.
    await jobs.idle()
    const m = await addMember(t.db)
    const [s] = await t.db
      .insert(sanctions)
      .values({
        memberId: m.id,
        kind: 'ban',
        rule: 'fake_profile',
        reason: 'r',
        staffId: moderator.id,
        appealTokenHash: `wrong-${m.id}`,
      })
      .returning()
    const id = s?.id as number
    await queueTransparency(t.db, id)
    const wrong = createJobRunner({
      db: t.db,
      handlers: transparencyJobs(t.db, () => ({ url: fake.url, token: 'wrong' })),
      log: () => undefined,
    })
    await t.db
      .update(jobsTable)
      .set({ maxAttempts: 3 })
      .where(eq(jobsTable.dedupeKey, `${TRANSPARENCY_SUBMIT}:${id}`))
    for (let i = 0; i < 3; i++) {
      await t.db
        .update(jobsTable)
        .set({ runAt: new Date(0) })
        .where(eq(jobsTable.kind, TRANSPARENCY_SUBMIT))
      await wrong.runDue()
    }
    await wrong.stop()
    const row = await submission(id)
    expect(row).toMatchObject({ status: 'failed', attempts: 3 })
    expect(row?.lastError).toContain('HTTP 401')
    expect(fake.statements.has(`sanction-${id}`)).toBe(false)
  })

  it('an answer lost after the database stored it: the replay counts as submitted', async () => {
    const id = await suspended()
    const [s] = await t.db.select().from(sanctions).where(eq(sanctions.id, id))
    fake.statements.set(`sanction-${id}`, s ? statementBody(s) : {})
    await runAll()
    expect(await submission(id)).toMatchObject({ status: 'submitted', remoteId: null })
  })

  it('without a token nothing is queued', async () => {
    const token = process.env.TRANSPARENCY_DB_TOKEN
    delete process.env.TRANSPARENCY_DB_TOKEN
    try {
      const m = await addMember(t.db)
      const [s] = await t.db
        .insert(sanctions)
        .values({
          memberId: m.id,
          kind: 'warn',
          rule: 'other',
          reason: 'r',
          staffId: moderator.id,
          appealTokenHash: `h-${m.id}`,
        })
        .returning()
      await queueTransparency(t.db, s?.id as number)
      expect(await submission(s?.id as number)).toBeUndefined()
    } finally {
      process.env.TRANSPARENCY_DB_TOKEN = token
    }
  })

  it('the console lists each submission with its state, for staff who may see the DSA figures', async () => {
    const res = await send(app, '/api/operator/transparency.php', { cookie: moderator.cookie })
    expect(res.status).toBe(200)
    const body = TransparencyResponse.parse(await res.json())
    expect(body.enabled).toBe(true)
    expect(new Set(body.submissions.map((s) => s.status))).toEqual(new Set(['submitted', 'failed']))
    expect(
      (await send(app, '/api/operator/transparency.php', { cookie: finance.cookie })).status,
    ).toBe(403)
  })
})
