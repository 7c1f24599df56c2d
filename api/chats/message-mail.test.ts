// Mails about new messages, through the API and real SMTP (the local capture
// server), on both databases: an away member who wants them gets one mail per
// chat in their language with the chat link; a second message before they
// read, a visible page, "New messages" off, a replay, an unactivated or
// blocked member, and a second chat within the gap mail nothing.
import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { conversationMembers, jobs, mails, members, pushMembers } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { credit } from '../credits/ledger.ts'
import { createJobRunner, type JobRunner } from '../jobs/queue.ts'
import { createMailer, type Mailer, mailJobs } from '../mail/mailer.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { linkIn, type SmtpCapture, startSmtpCapture } from '../test/smtp.ts'
import {
  MESSAGE_MAIL_DELAY_MS,
  MESSAGE_MAIL_GAP_MS,
  MESSAGE_MAIL_JOB,
  messageMailJobHandlers,
} from './message-mail.ts'

const SITE = 'https://amora.example'

it('pins the delay (2 minutes) and the gap between mails to one member (3 hours)', () => {
  expect(MESSAGE_MAIL_DELAY_MS).toBe(120_000)
  expect(MESSAGE_MAIL_GAP_MS).toBe(10_800_000)
})

describeEngines('mails about new messages on %s', (engine) => {
  let database: TestDatabase
  let smtp: SmtpCapture
  let mailer: Mailer
  let app: Api
  /** The queue as it runs once the mail delay has passed. */
  let later: JobRunner
  /** The queue right now (the delay not yet passed). */
  let now: JobRunner

  beforeAll(async () => {
    database = await freshDatabase(engine)
    smtp = await startSmtpCapture()
    mailer = createMailer({ smtpUrl: smtp.url })
    later = createJobRunner({
      db: database.db,
      handlers: {},
      now: () => new Date(Date.now() + MESSAGE_MAIL_DELAY_MS + 5_000),
      log: () => {},
    })
    app = createApi({ db: database.db, jobs: later, accounts: { mailer, publicUrl: SITE } })
    now = createJobRunner({ db: database.db, handlers: {}, log: () => {} })
    // The same handlers on a runner with the real clock (createApi registered them on `later`).
    now.register(messageMailJobHandlers(database.db, mailer))
    now.register(mailJobs(database.db, mailer))
  })
  afterAll(async () => {
    await smtp?.close()
    await database?.close()
  })
  beforeEach(() => {
    smtp.messages.length = 0
  })

  interface Pair {
    writer: MemberRow
    reader: MemberRow
    writerCookie: string
    readerCookie: string
    conversation: number
  }

  /** A writer with credits and an activated reader (Dutch) who was last here an hour ago. */
  async function pair(reader: Partial<MemberRow> = {}): Promise<Pair> {
    const writer = await addMember(database.db, { name: 'Anna', activatedAt: new Date() })
    const readerRow = await addMember(database.db, {
      name: 'Bram',
      gender: 'male',
      language: 'nl',
      activatedAt: new Date(),
      lastActiveAt: new Date(Date.now() - 3_600_000),
      ...reader,
    })
    await database.db.transaction((tx) => credit(tx, writer.id, 100, 'bonus', 'test'))
    const writerCookie = await login(app, writer.email, TEST_PASSWORD)
    const readerCookie = await login(app, readerRow.email, TEST_PASSWORD)
    const res = await send(app, `/api/chat.php?profile=${readerRow.id}`, { cookie: writerCookie })
    const conversation = ((await res.json()) as { id: number }).id
    return { writer, reader: readerRow, writerCookie, readerCookie, conversation }
  }

  async function write(p: Pair, text: string, clientId = randomUUID(), cookie = p.writerCookie) {
    const res = await send(app, '/api/messages.php', {
      method: 'POST',
      body: { conversation: p.conversation, text, client_id: clientId },
      cookie,
    })
    expect(res.status).toBeLessThan(300)
  }

  /** Runs every job that is due once the delay has passed, to the end (mails sent). */
  async function drain() {
    while ((await later.runDue()) > 0) {}
    await mailer.idle()
  }
  const mailsTo = (m: MemberRow) => smtp.messages.filter((x) => x.to.includes(m.email))
  const mailJobsOf = (p: Pair) =>
    database.db
      .select()
      .from(jobs)
      .where(
        and(
          eq(jobs.kind, MESSAGE_MAIL_JOB),
          sql`(${jobs.payload}->>'conversation')::bigint = ${p.conversation}`,
        ),
      )

  it('mails an away member once, in their language, naming the sender and linking to the chat and to /notifications', async () => {
    const p = await pair()
    await write(p, 'Zin in koffie morgen?')
    await drain()
    const got = mailsTo(p.reader)
    expect(got).toHaveLength(1)
    const mail = got[0]!
    expect(mail.lang).toBe('nl')
    expect(mail.subject).toBe('Anna heeft je een bericht gestuurd op Amora')
    expect(mail.text).toContain('Hallo Bram,')
    expect(linkIn(mail, `/chats/${p.conversation}`).href).toBe(`${SITE}/chats/${p.conversation}`)
    expect(linkIn(mail, '/notifications').href).toBe(`${SITE}/notifications`)
    expect(mail.html).toContain(`<a href="${SITE}/notifications"`)
    // Never the message itself.
    expect(mail.text).not.toContain('koffie')
    expect(mail.html).not.toContain('koffie')
    const [row] = await database.db.select().from(mails).where(eq(mails.to, p.reader.email))
    expect(row).toMatchObject({ kind: 'new_message', memberId: p.reader.id })
    expect(row!.sentAt).not.toBeNull()
  })

  it('waits two minutes first: a message read in that time mails nothing', async () => {
    const p = await pair()
    await write(p, 'Hoi!')
    // Not due yet on the real clock.
    expect(await now.runDue()).toBe(0)
    const read = await send(app, '/api/chat.php', {
      method: 'PUT',
      body: { conversation: p.conversation },
      cookie: p.readerCookie,
    })
    expect(read.status).toBe(200)
    await drain()
    expect(mailsTo(p.reader)).toHaveLength(0)
  })

  it('sends nothing for a second message before the member has read the first', async () => {
    const p = await pair()
    await write(p, 'Eén')
    await drain()
    expect(mailsTo(p.reader)).toHaveLength(1)
    await write(p, 'Twee')
    await write(p, 'Drie')
    await drain()
    expect(mailsTo(p.reader)).toHaveLength(1)
  })

  it('mails about the chat again once the member has read it and the gap has passed', async () => {
    const p = await pair()
    await write(p, 'Eén')
    await drain()
    await send(app, '/api/chat.php', {
      method: 'PUT',
      body: { conversation: p.conversation },
      cookie: p.readerCookie,
    })
    await write(p, 'Twee')
    await drain()
    // Read, but the last mail to this member was less than 3 hours ago.
    expect(mailsTo(p.reader)).toHaveLength(1)
    await database.db
      .update(pushMembers)
      .set({ messageMailedAt: new Date(Date.now() - MESSAGE_MAIL_GAP_MS - 60_000) })
      .where(eq(pushMembers.memberId, p.reader.id))
    await write(p, 'Drie')
    await drain()
    expect(mailsTo(p.reader)).toHaveLength(2)
  })

  it('mails at most once per 3 hours per member, whoever writes', async () => {
    const p = await pair()
    await write(p, 'Eerste')
    await drain()
    const other = await addMember(database.db, { name: 'Carla', activatedAt: new Date() })
    await database.db.transaction((tx) => credit(tx, other.id, 100, 'bonus', 'test'))
    const cookie = await login(app, other.email, TEST_PASSWORD)
    const res = await send(app, `/api/chat.php?profile=${p.reader.id}`, { cookie })
    const second = { ...p, conversation: ((await res.json()) as { id: number }).id }
    await write(second, 'Hallo Bram', randomUUID(), cookie)
    await drain()
    expect(mailsTo(p.reader).map((m) => m.subject)).toEqual([
      'Anna heeft je een bericht gestuurd op Amora',
    ])
  })

  it('sends nothing when the member turned message notifications off', async () => {
    const p = await pair()
    const off = await send(app, '/api/push.php', {
      method: 'PUT',
      body: { messages: false },
      cookie: p.readerCookie,
    })
    expect(off.status).toBe(200)
    await write(p, 'Hallo?')
    await drain()
    expect(mailsTo(p.reader)).toHaveLength(0)
    // Turned off after the message was sent, before its mail was due: none either.
    const q = await pair()
    await write(q, 'Hallo?')
    await send(app, '/api/push.php', {
      method: 'PUT',
      body: { messages: false },
      cookie: q.readerCookie,
    })
    await drain()
    expect(mailsTo(q.reader)).toHaveLength(0)
  })

  it('sends nothing while a page of the member is visible, nor when they come back before it is due', async () => {
    const p = await pair()
    const visible = await send(app, '/api/push-visibility.php?visible=1', {
      method: 'POST',
      cookie: p.readerCookie,
    })
    expect(visible.status).toBe(204)
    await write(p, 'Zie je dit?')
    expect(await mailJobsOf(p)).toHaveLength(0)
    await drain()
    expect(mailsTo(p.reader)).toHaveLength(0)

    const q = await pair()
    await write(q, 'En dit?')
    expect(await mailJobsOf(q)).toHaveLength(1)
    await send(app, '/api/push-visibility.php?visible=1', {
      method: 'POST',
      cookie: q.readerCookie,
    })
    await drain()
    expect(mailsTo(q.reader)).toHaveLength(0)
  })

  it('mails once for replays of the same message (same client id)', async () => {
    const p = await pair()
    const clientId = randomUUID()
    await write(p, 'Nog een keer', clientId)
    await write(p, 'Nog een keer', clientId)
    await drain()
    await write(p, 'Nog een keer', clientId)
    await drain()
    expect(mailsTo(p.reader)).toHaveLength(1)
    expect(await mailJobsOf(p)).toHaveLength(1)
  })

  it('never mails an unactivated, deleted or fictional member', async () => {
    for (const reader of [
      { activatedAt: null },
      { fictional: true },
    ] satisfies Partial<MemberRow>[]) {
      const p = await pair(reader)
      await write(p, 'Hallo')
      await drain()
      expect(mailsTo(p.reader), JSON.stringify(reader)).toHaveLength(0)
    }
    // Deleted after the message was sent (a deleted member gets no messages at all).
    const p = await pair()
    await write(p, 'Hallo')
    await database.db
      .update(members)
      .set({ deletedAt: new Date() })
      .where(eq(members.id, p.reader.id))
    await drain()
    expect(mailsTo(p.reader)).toHaveLength(0)
  })

  it('never mails about a sender the member blocked after the message came', async () => {
    const p = await pair()
    await write(p, 'Vervelend bericht')
    const block = await send(app, '/api/blocks.php', {
      method: 'POST',
      body: { profile: p.writer.id },
      cookie: p.readerCookie,
    })
    expect(block.status).toBe(200)
    await drain()
    expect(mailsTo(p.reader)).toHaveLength(0)
    const [cm] = await database.db
      .select()
      .from(conversationMembers)
      .where(
        and(
          eq(conversationMembers.conversationId, p.conversation),
          eq(conversationMembers.memberId, p.reader.id),
        ),
      )
    expect(cm!.mailedAt).toBeNull()
  })
})
