// The operator setting age_assurance, per site, on both databases: `off`
// asks nothing; `first_contact` refuses a message and a credit purchase with
// 403 age_assurance_required until the member passed a check, and leaves
// likes open; `signup` refuses likes too. A passed check (a real signed
// presentation from the test wallet) opens every gate.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { siteSettings } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { AgeStartResponse, AgeStatus } from '../contract/index.ts'
import { credit } from '../credits/index.ts'
import { createMailer } from '../mail/mailer.ts'
import { localProvider } from '../payments/local.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addConversation, addMember, TEST_PASSWORD } from '../test/seed.ts'
import { euAvProvider } from './eu-av.ts'
import { present, type TestIssuer, testIssuer } from './testing/wallet.ts'
import { generatedVerifier } from './verifier-key.ts'

const FIRST = 'https://first.example'
const SIGNUP = 'https://signup.example'
const OFF = 'http://localhost'

describeEngines('the age_assurance setting per site on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let issuer: TestIssuer

  beforeAll(async () => {
    t = await freshDatabase(engine)
    issuer = await testIssuer()
    app = createApi({
      db: t.db,
      age: {
        providers: {
          'eu-av': euAvProvider({
            trustAnchors: [issuer.anchorDer],
            verifier: generatedVerifier(t.db),
          }),
        },
      },
      payments: localProvider(t.db),
      accounts: {
        mailer: createMailer({ devListing: true }),
        siteHosts: ['first.example', 'signup.example', 'localhost'],
      },
    })
    await t.db.insert(siteSettings).values({
      key: 'sites',
      value: {
        'first.example': { age_assurance: 'first_contact' },
        'signup.example': { age_assurance: 'signup' },
      },
    })
  })
  afterAll(async () => {
    await t?.close()
  })

  async function pair(base: string) {
    const me = await addMember(t.db)
    const other = await addMember(t.db)
    await t.db.transaction((tx) => credit(tx, me.id, 100, 'bonus', 'test'))
    const conversation = await addConversation(t.db, me.id, other.id)
    const cookie = await login(app, me.email, TEST_PASSWORD, base)
    return { me, other, conversation, cookie }
  }

  const message = (base: string, cookie: string, conversation: number) =>
    send(app, '/api/messages.php', {
      method: 'POST',
      base,
      cookie,
      body: { conversation, text: 'Hello there', client_id: randomUUID() },
    })
  const order = (base: string, cookie: string) =>
    send(app, '/api/orders.php', {
      method: 'POST',
      base,
      cookie,
      body: {
        client_id: randomUUID(),
        package: 'popular',
        method: 'ideal',
        withdrawal_consent: true,
      },
    })
  const like = (base: string, cookie: string, profile: number) =>
    send(app, '/api/likes.php', { method: 'POST', base, cookie, body: { profile } })

  async function pass(base: string, cookie: string) {
    const res = await send(app, '/api/age_assurance.php', {
      method: 'POST',
      base,
      cookie,
      body: { provider: 'eu-av' },
    })
    expect(res.status).toBe(201)
    const { link } = AgeStartResponse.parse(await res.json())
    const { response } = await present(link, await issuer.issue({ ageOver18: true }), {
      get: (url) => send(app, new URL(url).pathname + new URL(url).search, { base }),
      post: (url, body) =>
        send(app, new URL(url).pathname + new URL(url).search, {
          method: 'POST',
          base,
          body,
          contentType: 'application/x-www-form-urlencoded',
          origin: null,
        }),
    })
    expect(response.status).toBe(200)
  }

  const refused = async (res: Response) => {
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ error: 'age_assurance_required' })
  }

  it('off (the default): nothing is asked; messages, likes and purchases go through', async () => {
    const p = await pair(OFF)
    const status = AgeStatus.parse(
      await (await send(app, '/api/age_assurance.php', { cookie: p.cookie })).json(),
    )
    expect(status).toMatchObject({ required: 'off', assured: false })
    expect((await message(OFF, p.cookie, p.conversation)).status).toBe(201)
    expect((await like(OFF, p.cookie, p.other.id)).status).toBe(200)
    expect((await order(OFF, p.cookie)).status).toBe(201)
  })

  it('first_contact: the first message and a purchase wait for a passed check; likes do not', async () => {
    const p = await pair(FIRST)
    const status = AgeStatus.parse(
      await (await send(app, '/api/age_assurance.php', { base: FIRST, cookie: p.cookie })).json(),
    )
    expect(status).toMatchObject({ required: 'first_contact', assured: false })
    await refused(await message(FIRST, p.cookie, p.conversation))
    await refused(await order(FIRST, p.cookie))
    expect((await like(FIRST, p.cookie, p.other.id)).status).toBe(200)
    // Nothing was sent or ordered by the refusals.
    const list = await send(app, `/api/messages.php?conversation=${p.conversation}`, {
      base: FIRST,
      cookie: p.cookie,
    })
    expect(((await list.json()) as { messages: unknown[] }).messages).toEqual([])

    await pass(FIRST, p.cookie)
    expect((await message(FIRST, p.cookie, p.conversation)).status).toBe(201)
    expect((await order(FIRST, p.cookie)).status).toBe(201)
  })

  it('signup: likes wait for a passed check too', async () => {
    const p = await pair(SIGNUP)
    await refused(await like(SIGNUP, p.cookie, p.other.id))
    await refused(await message(SIGNUP, p.cookie, p.conversation))
    await refused(await order(SIGNUP, p.cookie))
    await pass(SIGNUP, p.cookie)
    expect((await like(SIGNUP, p.cookie, p.other.id)).status).toBe(200)
    expect((await message(SIGNUP, p.cookie, p.conversation)).status).toBe(201)
  })
})
