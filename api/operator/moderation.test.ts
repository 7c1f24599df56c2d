// Moderation: one queue of reports, complaints and appeals (oldest first,
// overdue after 24 h) with the content in context; every decision audited
// with its time to action; a suspension ends the member's sessions and
// refuses login until its end, a ban refuses it for good; the member gets a
// statement of reasons in their language and can appeal with its token while
// logged out; the reporter gets the decision; an appeal is decided only by
// another moderator, and lifting it lets the member log in again.
import { and, asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  auditLog,
  conversationMembers,
  conversations,
  images,
  mails,
  members,
  messages,
  reports,
  sanctions,
  sessions,
} from '../../db/schema/index.ts'
import {
  DecideResponse,
  DsaResponse,
  QueueItemDetail,
  QueueResponse,
} from '../contract/operator/moderation.ts'
import { StatementResponse } from '../contract/traffic.ts'
import { type AccountsApi, accountsApi, tokenIn } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, birthDate, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { staffSession } from '../test/staff.ts'

const DAY_MS = 86_400_000

describeEngines('moderation on %s', (engine) => {
  let t: TestDatabase
  let api: AccountsApi
  let serial = 0

  beforeAll(async () => {
    t = await freshDatabase(engine)
    api = accountsApi(t.db)
  })
  afterAll(async () => {
    await api?.mailer.idle()
    await t?.close()
  })

  const member = (over: Partial<MemberRow> = {}) =>
    addMember(t.db, {
      email: `mod-${engine}-${++serial}@example.com`,
      name: `Member ${serial}`,
      ...over,
    })

  /** A conversation of 12 messages between a and b; b sends the even ones (ids[1], ids[3], ...). */
  async function chat(a: MemberRow, b: MemberRow) {
    const [low, high] = a.id < b.id ? [a, b] : [b, a]
    const [conv] = await t.db
      .insert(conversations)
      .values({ memberLow: low.id, memberHigh: high.id })
      .returning()
    if (!conv) throw new Error('no conversation')
    await t.db.insert(conversationMembers).values([
      { conversationId: conv.id, memberId: a.id },
      { conversationId: conv.id, memberId: b.id },
    ])
    const rows = await t.db
      .insert(messages)
      .values(
        Array.from({ length: 12 }, (_, i) => ({
          conversationId: conv.id,
          senderId: i % 2 ? b.id : a.id,
          body: `message ${i + 1}`,
        })),
      )
      .returning({ id: messages.id })
    return rows.map((r) => r.id)
  }

  async function report(reporter: MemberRow, reported: MemberRow, message?: number) {
    const cookie = await login(api.app, reporter.email, TEST_PASSWORD)
    const res = await send(api.app, '/api/reports.php', {
      method: 'POST',
      cookie,
      body: { profile: reported.id, message, reason: 'harassment', text: 'He keeps insulting me.' },
    })
    expect(res.status).toBe(201)
    return ((await res.json()) as { report: { id: number } }).report.id
  }

  const decide = (cookie: string, body: Record<string, unknown>) =>
    send(api.app, '/api/operator/decide.php', { method: 'POST', cookie, body })

  const mailsTo = (to: string) =>
    t.db.select().from(mails).where(eq(mails.to, to)).orderBy(asc(mails.id))

  const loginStatus = async (email: string) => {
    const res = await send(api.app, '/api/login.php', {
      method: 'POST',
      body: { email, password: TEST_PASSWORD },
    })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }

  it('lists open items oldest first, flags those older than 24 hours, and shows a reported message with 5 messages either side', async () => {
    const reporter = await member({ language: 'nl' })
    const reported = await member({
      city: 'Utrecht',
      personal: 'Hi there',
      dateOfBirth: birthDate(33),
    })
    const ids = await chat(reporter, reported)
    const messageId = ids[5] as number
    const reportId = await report(reporter, reported, messageId)
    const old = await report(reporter, reported)
    await t.db
      .update(reports)
      .set({ createdAt: new Date(Date.now() - 2 * DAY_MS) })
      .where(eq(reports.id, old))
    const mod = await staffSession(api.app, t.db, ['moderator'])
    const list = QueueResponse.parse(
      await (await send(api.app, '/api/operator/queue.php', { cookie: mod.cookie })).json(),
    )
    const mine = list.items.filter((i) => i.type === 'report' && [reportId, old].includes(i.id))
    expect(mine.map((i) => [i.id, i.overdue])).toEqual([
      [old, true],
      [reportId, false],
    ])
    const res = await send(api.app, `/api/operator/queue_item.php?type=report&id=${reportId}`, {
      cookie: mod.cookie,
    })
    expect(res.status).toBe(200)
    const item = QueueItemDetail.parse(await res.json())
    expect(item.profile).toMatchObject({
      id: reported.id,
      name: reported.name,
      age: 33,
      city: 'Utrecht',
      personal: 'Hi there',
    })
    expect(item.messages.map((m) => m.body)).toEqual([
      'message 1',
      'message 2',
      'message 3',
      'message 4',
      'message 5',
      'message 6',
      'message 7',
      'message 8',
      'message 9',
      'message 10',
      'message 11',
    ])
    expect(item.messages.filter((m) => m.reported).map((m) => m.id)).toEqual([messageId])
    expect(item.text).toBe('He keeps insulting me.')
  })

  it('answers 404 for an unknown item and 400 naming the field for bad input', async () => {
    const mod = await staffSession(api.app, t.db, ['moderator'])
    const missing = await send(api.app, '/api/operator/queue_item.php?type=report&id=999999', {
      cookie: mod.cookie,
    })
    expect(missing.status).toBe(404)
    const bad = await send(api.app, '/api/operator/queue_item.php?type=bogus&id=1', {
      cookie: mod.cookie,
    })
    expect(bad.status).toBe(400)
    expect((await bad.json()).field).toBe('type')
    const noRule = await decide(mod.cookie, { type: 'report', id: 1, action: 'warn', reason: 'x' })
    expect([400, 404]).toContain(noRule.status)
    const noReason = await decide(mod.cookie, { type: 'report', id: 1, action: 'dismiss' })
    expect(noReason.status).toBe(400)
    expect((await noReason.json()).field).toBe('reason')
  })

  it('suspends for 7 days: sessions end, login is refused with the end date, statement of reasons in the member’s language, the reporter told; audited with time to action', async () => {
    const reporter = await member({ language: 'de' })
    const reported = await member({ language: 'nl' })
    const reportedCookie = await login(api.app, reported.email, TEST_PASSWORD)
    const ids = await chat(reporter, reported)
    const reportId = await report(reporter, reported, ids[5])
    const mod = await staffSession(api.app, t.db, ['moderator'])
    const res = await decide(mod.cookie, {
      type: 'report',
      id: reportId,
      action: 'suspend',
      rule: 'harassment',
      reason: 'Insults in three messages.',
      days: 7,
    })
    expect(res.status).toBe(200)
    const body = DecideResponse.parse(await res.json())
    expect(body.sanction).toMatchObject({ kind: 'suspend', rule: 'harassment', staff: mod.id })
    const ends = new Date(body.sanction?.ends_at ?? 0).getTime()
    expect(Math.abs(ends - (Date.now() + 7 * DAY_MS))).toBeLessThan(60_000)

    // The member's sessions are gone: the old cookie is a stranger now.
    expect(await t.db.select().from(sessions).where(eq(sessions.memberId, reported.id))).toEqual([])
    const me = await send(api.app, '/api/user.php', { cookie: reportedCookie })
    expect(me.status).toBe(403)
    expect((await me.json()).error).toBe('not_logged_in')
    const refused = await loginStatus(reported.email)
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ error: 'suspended', rule: 'harassment' })
    expect(refused.body.until).toBe(body.sanction?.ends_at)

    const [row] = await t.db.select().from(reports).where(eq(reports.id, reportId))
    expect(row).toMatchObject({ status: 'decided', decision: 'suspend', decidedBy: mod.id })
    expect(row?.actionSeconds).toBeGreaterThanOrEqual(0)

    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'report'), eq(auditLog.targetId, String(reportId))))
    expect(entry).toMatchObject({
      staffId: mod.id,
      action: 'moderation.suspend',
      reason: 'Insults in three messages.',
    })
    expect(entry?.details).toMatchObject({ member: reported.id, rule: 'harassment', days: 7 })

    const [statement] = await mailsTo(reported.email)
    expect(statement).toMatchObject({ kind: 'statement_of_reasons', memberId: reported.id })
    expect(statement?.subject).toBe('Besluit over je account bij Amora')
    expect(statement?.text).toContain('Insults in three messages.')
    expect(statement?.text).toContain('intimidatie')
    expect(statement?.text).toContain('geen geautomatiseerd middel')
    const [decision] = (await mailsTo(reporter.email)).filter((m) => m.kind === 'report_decision')
    expect(decision?.subject).toBe('Deine Meldung bei Amora: unsere Entscheidung')
    expect(decision?.text).toContain('Maßnahmen')

    // Deciding it twice is refused.
    const again = await decide(mod.cookie, {
      type: 'report',
      id: reportId,
      action: 'dismiss',
      reason: 'again',
    })
    expect(again.status).toBe(409)
  })

  it('lets the member read the statement and appeal while suspended; only another moderator decides; lifting lets them log in, with the outcome by mail', async () => {
    const reporter = await member()
    const reported = await member({ language: 'fr' })
    const reportId = await report(reporter, reported)
    const first = await staffSession(api.app, t.db, ['moderator'])
    const res = await decide(first.cookie, {
      type: 'report',
      id: reportId,
      action: 'suspend',
      rule: 'spam_scam',
      reason: 'Asked for money.',
      days: 30,
    })
    expect(res.status).toBe(200)
    const [statementMail] = await mailsTo(reported.email)
    const token = statementMail?.text.match(/appeal\?token=([\w-]+)/)?.[1]
    expect(token).toBeTruthy()

    const statement = await send(api.app, `/api/statement.php?token=${token}`)
    expect(statement.status).toBe(200)
    expect(StatementResponse.parse(await statement.json())).toMatchObject({
      kind: 'suspend',
      rule: 'spam_scam',
      reason: 'Asked for money.',
      appeal: null,
    })
    expect((await send(api.app, `/api/statement.php?token=${'x'.repeat(32)}`)).status).toBe(404)

    const appeal = await send(api.app, '/api/appeal.php', {
      method: 'POST',
      body: { token, text: 'It was a joke between friends, I never asked for money.' },
    })
    expect(appeal.status).toBe(201)
    const twice = await send(api.app, '/api/appeal.php', {
      method: 'POST',
      body: { token, text: 'Please look at it again, it was a joke.' },
    })
    expect(twice.status).toBe(409)

    const list = QueueResponse.parse(
      await (await send(api.app, '/api/operator/queue.php', { cookie: first.cookie })).json(),
    )
    const item = list.items.find((i) => i.type === 'appeal' && i.member === reported.id)
    expect(item).toBeTruthy()
    const appealId = item?.id as number

    // The moderator who decided cannot decide the appeal.
    const own = await decide(first.cookie, {
      type: 'appeal',
      id: appealId,
      action: 'lift',
      reason: 'I changed my mind.',
    })
    expect(own.status).toBe(403)
    expect((await own.json()).error).toBe('same_moderator')
    expect((await loginStatus(reported.email)).status).toBe(403)

    const second = await staffSession(api.app, t.db, ['moderator'])
    const wrong = await decide(second.cookie, {
      type: 'appeal',
      id: appealId,
      action: 'ban',
      rule: 'other',
      reason: 'x',
    })
    expect(wrong.status).toBe(400)
    const lifted = await decide(second.cookie, {
      type: 'appeal',
      id: appealId,
      action: 'lift',
      reason: 'The messages read as a joke in context.',
    })
    expect(lifted.status).toBe(200)
    expect((await loginStatus(reported.email)).status).toBe(200)

    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'appeal'), eq(auditLog.targetId, String(appealId))))
    expect(entry).toMatchObject({ staffId: second.id, action: 'appeal.lift' })
    const [sanction] = await t.db
      .select()
      .from(sanctions)
      .where(eq(sanctions.memberId, reported.id))
    expect(sanction?.liftedBy).toBe(second.id)
    const outcome = (await mailsTo(reported.email)).find((m) => m.kind === 'appeal_decision')
    expect(outcome?.subject).toBe('Ta contestation sur Amora : décision')
    expect(outcome?.text).toContain('Nous avons levé la décision. Tu peux te reconnecter.')
    const after = StatementResponse.parse(
      await (await send(api.app, `/api/statement.php?token=${token}`)).json(),
    )
    expect(after.appeal?.outcome).toBe('lifted')
    expect(after.lifted_at).not.toBeNull()
  })

  it('bans: login answers 403 banned, audited; a password reset then gives no session', async () => {
    const reporter = await member()
    const reported = await member()
    const reportId = await report(reporter, reported)
    const mod = await staffSession(api.app, t.db, ['moderator'])
    const res = await decide(mod.cookie, {
      type: 'report',
      id: reportId,
      action: 'ban',
      rule: 'underage',
      reason: 'Says she is 15.',
    })
    expect(res.status).toBe(200)
    const refused = await loginStatus(reported.email)
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe('banned')
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'report'), eq(auditLog.targetId, String(reportId))))
    expect(entry?.action).toBe('moderation.ban')
    // A password reset sets the new password but starts no session for a banned member.
    await send(api.app, '/api/reset_password.php', {
      method: 'POST',
      body: { email: reported.email },
      headers: { 'x-forwarded-for': '203.0.113.91' },
    })
    await api.mailer.idle()
    const resetMail = (await mailsTo(reported.email)).find((m) => m.kind === 'reset')
    const token = tokenIn(resetMail?.text ?? '', '/reset-password/do')
    const done = await send(api.app, '/api/reset_password.php?do=1', {
      method: 'POST',
      body: { token, password: 'a long and new secret' },
    })
    expect(done.status).toBe(200)
    expect(done.headers.get('set-cookie') ?? '').not.toMatch(/\bsid=[^;]/)
    expect(await t.db.select().from(sessions).where(eq(sessions.memberId, reported.id))).toEqual([])
  })

  it('removes a photo and the profile text, marks fictional, dismisses: each audited; dismissing tells the reporter nothing was done', async () => {
    const reporter = await member({ language: 'es' })
    const reported = await member({ personal: 'Call me on +31 6 12345678' })
    const [photo] = await t.db
      .insert(images)
      .values({ memberId: reported.id, filename: 'x.jpg', thumbFilename: 'x_t.jpg' })
      .returning()
    await t.db.update(members).set({ mainImageId: photo?.id }).where(eq(members.id, reported.id))
    const mod = await staffSession(api.app, t.db, ['moderator'])
    const cases = [
      { action: 'remove_photo', photo: photo?.id, rule: 'explicit_content' },
      { action: 'remove_text', rule: 'spam_scam' },
      { action: 'mark_fictional', rule: 'fake_profile' },
      { action: 'dismiss' },
    ]
    for (const c of cases) {
      const id = await report(reporter, reported)
      const res = await decide(mod.cookie, {
        type: 'report',
        id,
        reason: `because ${c.action}`,
        ...c,
      })
      expect(res.status, c.action).toBe(200)
      const [entry] = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetType, 'report'), eq(auditLog.targetId, String(id))))
      expect(entry, c.action).toMatchObject({
        action: `moderation.${c.action}`,
        reason: `because ${c.action}`,
      })
    }
    const [after] = await t.db.select().from(members).where(eq(members.id, reported.id))
    expect(after).toMatchObject({ personal: null, fictional: true, mainImageId: null })
    expect(await t.db.select().from(images).where(eq(images.memberId, reported.id))).toEqual([])
    // Photo and text removals restrict the member: two statements; fictional marking is none.
    const statements = (await mailsTo(reported.email)).filter(
      (m) => m.kind === 'statement_of_reasons',
    )
    expect(statements).toHaveLength(2)
    const decisions = (await mailsTo(reporter.email)).filter((m) => m.kind === 'report_decision')
    expect(decisions).toHaveLength(4)
    expect(decisions[3]?.text).toContain('no hemos tomado medidas')
  })

  it('decides a complaint about a profile URL and mails the complainant in the complaint’s language', async () => {
    const reported = await member()
    const filed = await send(api.app, '/api/complaints.php', {
      method: 'POST',
      headers: { 'x-forwarded-for': '203.0.113.77' },
      body: {
        name: 'Anna',
        email: `anna-${engine}@example.com`,
        subject: 'Fake profile',
        url: `http://localhost/members/${reported.id}`,
        text: 'These are photos of my sister, not of this person.',
        good_faith: true,
        locale: 'it',
      },
    })
    expect(filed.status).toBe(201)
    const mod = await staffSession(api.app, t.db, ['moderator'])
    const list = QueueResponse.parse(
      await (await send(api.app, '/api/operator/queue.php', { cookie: mod.cookie })).json(),
    )
    const item = list.items.find((i) => i.type === 'complaint' && i.member === reported.id)
    expect(item).toBeTruthy()
    const res = await decide(mod.cookie, {
      type: 'complaint',
      id: item?.id,
      action: 'warn',
      rule: 'fake_profile',
      reason: 'Photos of someone else.',
    })
    expect(res.status).toBe(200)
    const told = (await mailsTo(`anna-${engine}@example.com`)).find(
      (m) => m.kind === 'report_decision',
    )
    expect(told?.subject).toBe('La tua segnalazione su Amora: la nostra decisione')
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'complaint'), eq(auditLog.targetId, String(item?.id))))
    expect(entry?.action).toBe('moderation.warn')
  })

  it('counts the DSA figures for a date range', async () => {
    const mod = await staffSession(api.app, t.db, ['moderator'])
    const today = new Date().toISOString().slice(0, 10)
    const res = await send(api.app, `/api/operator/dsa.php?from=${today}&to=${today}`, {
      cookie: mod.cookie,
    })
    expect(res.status).toBe(200)
    const figures = DsaResponse.parse(await res.json())
    // This suite's items of today (the report backdated by two days falls outside).
    expect(figures.notices).toEqual({ report: 8, complaint_notice: 1 })
    expect(figures.actions).toEqual({
      suspend: 2,
      ban: 1,
      remove_photo: 1,
      remove_text: 1,
      mark_fictional: 1,
      dismiss: 1,
      warn: 1,
    })
    expect(figures.appeals).toEqual({ received: 1, upheld: 0, lifted: 1, open: 0 })
    expect(figures.median_action_seconds).not.toBeNull()
    expect(figures.automated).toBe(false)
    const bad = await send(api.app, '/api/operator/dsa.php?from=yesterday&to=2026-01-01', {
      cookie: mod.cookie,
    })
    expect(bad.status).toBe(400)
    expect((await bad.json()).field).toBe('from')
  })
})
