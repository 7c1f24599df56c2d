import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { complaints, mails } from '../../db/schema/index.ts'
import { ComplaintResponse } from '../contract/index.ts'
import { type AccountsApi, accountsApi, ip } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'

const LIMIT_PER_HOUR = 10 // the 11th complaint from one client in an hour is refused

const notice = (over: Record<string, unknown> = {}) => ({
  name: 'Jan de Vries',
  email: 'jan@example.com',
  subject: 'Stolen photos',
  url: 'http://localhost/members/12',
  text: 'This profile uses photos of me without my consent.',
  good_faith: true,
  locale: 'nl',
  ...over,
})

describeEngines('complaints on %s', (engine) => {
  let database: TestDatabase
  let api: AccountsApi
  let client = 0
  const post = (body: unknown, headers = ip(++client)) =>
    send(api.app, '/api/complaints.php', { method: 'POST', body, headers })

  beforeAll(async () => {
    database = await freshDatabase(engine)
    api = accountsApi(database.db)
  })
  afterAll(async () => {
    await api?.mailer.idle()
    await database?.close()
  })

  it('stores a notice and receipts it by a text-only mail in the sender’s language, with its reference', async () => {
    const res = await post(notice())
    expect(res.status).toBe(201)
    const { complaint } = ComplaintResponse.parse(await res.json())
    expect(complaint.reference).toMatch(/^C-[2-9A-HJKMNP-Z]{8}$/)
    const [row] = await database.db
      .select()
      .from(complaints)
      .where(eq(complaints.reference, complaint.reference))
    expect(row).toMatchObject({ kind: 'notice', email: 'jan@example.com', goodFaith: true })
    const sent = await database.db.select().from(mails).where(eq(mails.to, 'jan@example.com'))
    expect(sent).toHaveLength(1)
    expect(sent[0]?.subject).toBe(`We hebben je klacht ${complaint.reference} bij Amora ontvangen`)
    expect(sent[0]?.html).toBe('')
    // The receipt never carries the sender's words: the form is no relay.
    expect(sent[0]?.text).not.toContain('photos of me')
    const [operator] = await database.db
      .select()
      .from(mails)
      .where(eq(mails.to, 'complaints@localhost'))
    expect(operator?.text).toContain('photos of me')
    expect(operator?.html).toBe('')
  })

  it.each([
    ['good_faith', { good_faith: false }],
    ['good_faith', { good_faith: undefined }],
    ['email', { email: 'not an address' }],
    ['text', { text: 'short' }],
    ['text', { text: 'x'.repeat(5001) }],
    ['url', { url: 'javascript:alert(1)' }],
    ['name', { name: '' }],
    ['subject', { subject: 's'.repeat(201) }],
    ['kind', { kind: 'other' }],
  ])('refuses bad input with 400 naming %s, storing nothing', async (field, over) => {
    const before = (await database.db.select().from(complaints)).length
    const res = await post(notice(over))
    expect(res.status).toBe(400)
    expect((await res.json()).field).toBe(field)
    expect((await database.db.select().from(complaints)).length).toBe(before)
  })

  it('takes an appeal of a decision from a member too', async () => {
    const res = await post(notice({ kind: 'decision', subject: 'My profile was removed', url: '' }))
    expect(res.status).toBe(201)
  })

  it('the 11th complaint in an hour from one client gets 429', async () => {
    const headers = ip(200)
    for (let i = 0; i < LIMIT_PER_HOUR; i++)
      expect((await post(notice(), headers)).status).toBe(201)
    const eleventh = await post(notice(), headers)
    expect(eleventh.status).toBe(429)
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await post(notice(), ip(201))).status).toBe(201) // another client is not affected
  })
})
