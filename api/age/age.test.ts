// Age assurance with the EU age verification app (DSA Art. 28), on both
// databases, with a local test issuer and wallet that make real signed
// presentations (api/age/testing/wallet.ts). Only a verified presentation
// proving 18+ marks the member; one proving under 18, a wrong nonce, a
// replay, a late answer, an untrusted issuer or a forged value changes
// nothing about the member, and an error answer without the request's state
// (sent only to the first fetch of the request object) leaves the request
// open. Only the result, its time and the provider are kept.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ageAssurance, ageRequests } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { AgeRequestState, AgeStartResponse, AgeStatus } from '../contract/index.ts'
import { createMailer } from '../mail/mailer.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { BASE, login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { euAvProvider } from './eu-av.ts'
import { decline, present, type TestIssuer, testIssuer } from './testing/wallet.ts'
import { generatedVerifier, sanDnsNames } from './verifier-key.ts'

describeEngines('age assurance with the EU age verification app on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let later: Api
  let issuer: TestIssuer
  let rogue: TestIssuer

  beforeAll(async () => {
    t = await freshDatabase(engine)
    issuer = await testIssuer('Test Age Issuer')
    rogue = await testIssuer('Rogue Issuer')
    const age = {
      providers: {
        'eu-av': euAvProvider({
          trustAnchors: [issuer.anchorDer],
          verifier: generatedVerifier(t.db),
        }),
      },
    }
    const accounts = { mailer: createMailer({ devListing: true }), trustProxy: false }
    app = createApi({ db: t.db, age, accounts })
    // The same site 11 minutes on: past the request's 10 minutes.
    later = createApi({ db: t.db, age, accounts, now: () => new Date(Date.now() + 11 * 60_000) })
  })
  afterAll(async () => {
    await t?.close()
  })

  /** The wallet's post, through `via` (the app, or the app of 11 minutes on). */
  const postVia = (via: Api) => (url: string, body: string) =>
    send(via, url.slice(BASE.length), {
      method: 'POST',
      body,
      contentType: 'application/x-www-form-urlencoded',
      origin: null,
    })
  /** The wallet's fetch of the request object at request_uri. */
  const getVia = (via: Api) => (url: string) => send(via, url.slice(BASE.length))
  /** The wallet, talking to `via` (the app by default). */
  const viaApp = (via: Api = app) => ({ get: getVia(via), post: postVia(via) })
  const responseUriOf = (request: string) => `${BASE}/api/age_response.php?request=${request}`

  async function member() {
    const m = await addMember(t.db)
    const cookie = await login(app, m.email, TEST_PASSWORD)
    return { id: m.id, cookie }
  }

  async function start(cookie: string) {
    const res = await send(app, '/api/age_assurance.php', {
      method: 'POST',
      body: { provider: 'eu-av' },
      cookie,
    })
    expect(res.status).toBe(201)
    return AgeStartResponse.parse(await res.json())
  }

  const status = async (cookie: string) =>
    AgeStatus.parse(await (await send(app, '/api/age_assurance.php', { cookie })).json())
  const stateOf = async (cookie: string, request: string) =>
    AgeRequestState.parse(
      await (await send(app, `/api/age_request.php?request=${request}`, { cookie })).json(),
    ).state
  const kept = async (memberId: number) =>
    t.db.select().from(ageAssurance).where(eq(ageAssurance.memberId, memberId))

  it('a presentation proving 18+ marks the member, keeping only the result, its time and the provider', async () => {
    const m = await member()
    expect((await status(m.cookie)).assured).toBe(false)
    const started = await start(m.cookie)
    expect(started.link).toMatch(/^openid4vp:\/\/\?/)
    // The link holds only the client id and where to fetch the signed request.
    const link = new URL(started.link)
    expect([...link.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri'])
    expect(link.searchParams.get('client_id')).toBe('x509_san_dns:localhost')
    const requestUri = link.searchParams.get('request_uri') ?? ''
    expect(requestUri).toBe(`${BASE}/api/age_request_object.php?request=${started.request}`)
    const object = await getVia(app)(requestUri)
    expect(object.status).toBe(200)
    expect(object.headers.get('content-type')).toBe('application/oauth-authz-req+jwt')
    const [h, p] = (await object.text()).split('.')
    const header = JSON.parse(Buffer.from(h ?? '', 'base64url').toString())
    const payload = JSON.parse(Buffer.from(p ?? '', 'base64url').toString())
    expect(header).toMatchObject({ typ: 'oauth-authz-req+jwt', alg: 'ES256' })
    expect(sanDnsNames(header.x5c[0])).toEqual(['localhost'])
    expect(payload).toMatchObject({
      client_id: 'x509_san_dns:localhost',
      response_type: 'vp_token',
      response_mode: 'direct_post',
      response_uri: responseUriOf(started.request),
      aud: requestUri,
    })
    expect(payload.dcql_query).toEqual({
      credentials: [
        {
          id: 'age',
          format: 'mso_mdoc',
          meta: { doctype_value: 'eu.europa.ec.av.1' },
          claims: [{ path: ['eu.europa.ec.av.1', 'age_over_18'], intent_to_retain: false }],
        },
      ],
    })
    expect(await stateOf(m.cookie, started.request)).toBe('pending')

    const { response } = await present(
      started.link,
      await issuer.issue({ ageOver18: true }),
      viaApp(),
    )
    expect(response.status).toBe(200)
    expect(await stateOf(m.cookie, started.request)).toBe('passed')
    const s = await status(m.cookie)
    expect(s).toMatchObject({ assured: true, provider: 'eu-av' })
    const rows = await kept(m.id)
    expect(rows).toHaveLength(1)
    // The row has exactly these columns: nothing of the document.
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual([
      'assuredAt',
      'memberId',
      'provider',
      'result',
    ])
    expect(rows[0]?.result).toBe('over_18')
  })

  it('a presentation proving under 18 closes the request and does not mark the member', async () => {
    const m = await member()
    const started = await start(m.cookie)
    const { response } = await present(
      started.link,
      await issuer.issue({ ageOver18: false }),
      viaApp(),
    )
    expect(response.status).toBe(200)
    expect(await stateOf(m.cookie, started.request)).toBe('refused')
    expect(await kept(m.id)).toEqual([])
  })

  it('a presentation bound to another nonce is refused (422) and changes nothing', async () => {
    const m = await member()
    const started = await start(m.cookie)
    const { response } = await present(started.link, await issuer.issue({ ageOver18: true }), {
      ...viaApp(),
      nonce: 'not-the-request-nonce',
    })
    expect(response.status).toBe(422)
    expect(await response.json()).toMatchObject({ error: 'presentation_refused' })
    expect(await stateOf(m.cookie, started.request)).toBe('pending')
    expect(await kept(m.id)).toEqual([])
  })

  it('a replayed presentation changes nothing: 409 on the same request, 422 on another', async () => {
    const m = await member()
    const first = await start(m.cookie)
    const done = await present(first.link, await issuer.issue({ ageOver18: true }), viaApp())
    expect(done.response.status).toBe(200)
    const again = await postVia(app)(done.responseUri, done.body)
    expect(again.status).toBe(409)

    // Another member's request, answered with the first member's presentation.
    const other = await member()
    const second = await start(other.cookie)
    const stolen = await postVia(app)(responseUriOf(second.request), done.body)
    expect(stolen.status).toBe(422)
    expect(await stateOf(other.cookie, second.request)).toBe('pending')
    expect(await kept(other.id)).toEqual([])
  })

  it('an answer after the request expired (10 minutes) is refused with 410 and changes nothing', async () => {
    const m = await member()
    const started = await start(m.cookie)
    const { response } = await present(started.link, await issuer.issue({ ageOver18: true }), {
      // The wallet fetched the request in time; its answer comes late.
      get: getVia(app),
      post: postVia(later),
    })
    expect(response.status).toBe(410)
    expect(await kept(m.id)).toEqual([])
    const [row] = await t.db.select().from(ageRequests).where(eq(ageRequests.id, started.request))
    expect(row?.state).toBe('pending')
    expect(row?.expiresAt.getTime()).toBe(row!.createdAt.getTime() + 600_000)
  })

  it('a presentation from an issuer the site does not trust is refused (422) and changes nothing', async () => {
    const m = await member()
    const started = await start(m.cookie)
    const { response } = await present(
      started.link,
      await rogue.issue({ ageOver18: true }),
      viaApp(),
    )
    expect(response.status).toBe(422)
    expect(await stateOf(m.cookie, started.request)).toBe('pending')
    expect(await kept(m.id)).toEqual([])
  })

  it('a presentation whose disclosed value was changed after signing is refused (422)', async () => {
    const m = await member()
    const started = await start(m.cookie)
    const { response } = await present(started.link, await issuer.issue({ ageOver18: false }), {
      ...viaApp(),
      tamper: true,
    })
    expect(response.status).toBe(422)
    expect(await kept(m.id)).toEqual([])
  })

  it('a holder who declines in the wallet closes the request; the member stays unassured', async () => {
    const m = await member()
    const started = await start(m.cookie)
    const res = await decline(started.link, postVia(app), getVia(app))
    expect(res.status).toBe(200)
    expect(await stateOf(m.cookie, started.request)).toBe('refused')
    expect(await kept(m.id)).toEqual([])
  })

  describe('an error answer (the wallet declines), which carries no signature', () => {
    const requestUriOf = (link: string) => new URL(link).searchParams.get('request_uri') ?? ''
    /** The payload of a request object as fetched. */
    const payloadOf = async (res: Response) => {
      expect(res.status).toBe(200)
      const [, p] = (await res.text()).split('.')
      return JSON.parse(Buffer.from(p ?? '', 'base64url').toString()) as { state?: string }
    }
    const expectIgnored = async (res: Response) => {
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ error: 'invalid_input', field: 'state' })
    }

    it('ends the request only with the state the wallet was sent: none or a wrong one leaves it pending', async () => {
      const m = await member()
      const started = await start(m.cookie)
      const uri = responseUriOf(started.request)
      // Someone who knows the request id (the QR code, a log), without the state.
      await expectIgnored(await postVia(app)(uri, 'error=access_denied'))
      await expectIgnored(await postVia(app)(uri, 'error=access_denied&state='))
      await expectIgnored(await postVia(app)(uri, 'error=access_denied&state=guess'))
      expect(await stateOf(m.cookie, started.request)).toBe('pending')
      // The wallet fetches the request: it carries the state (random, 192 bits).
      const { state } = await payloadOf(await getVia(app)(requestUriOf(started.link)))
      expect(state).toMatch(/^[\w-]{32}$/)
      const wrong = `${state?.slice(0, -1)}${state?.endsWith('A') ? 'B' : 'A'}`
      await expectIgnored(await postVia(app)(uri, `error=access_denied&state=${wrong}`))
      await expectIgnored(await postVia(app)(uri, 'error=access_denied'))
      expect(await stateOf(m.cookie, started.request)).toBe('pending')
      // The wallet's own answer, with the state: the request is closed.
      const res = await postVia(app)(uri, `error=access_denied&state=${state}`)
      expect(res.status).toBe(200)
      expect(await stateOf(m.cookie, started.request)).toBe('refused')
      expect(await kept(m.id)).toEqual([])
    })

    it('sends the state in the first fetched request object only: a later fetcher cannot end the request', async () => {
      const m = await member()
      const started = await start(m.cookie)
      const requestUri = requestUriOf(started.link)
      // A HEAD answers no body, so it takes nothing.
      expect((await send(app, requestUri.slice(BASE.length), { method: 'HEAD' })).status).toBe(200)
      const first = await payloadOf(await getVia(app)(requestUri))
      expect(first.state).toBeTruthy()
      const again = await payloadOf(await getVia(app)(requestUri))
      expect(again).not.toHaveProperty('state')
      // A wallet that fetched it later declines with what it was sent (no state): ignored.
      await expectIgnored(await decline(started.link, postVia(app), getVia(app)))
      expect(await stateOf(m.cookie, started.request)).toBe('pending')
      // Its presentation needs no state (its device signature binds it to the nonce).
      const { response } = await present(
        started.link,
        await issuer.issue({ ageOver18: true }),
        viaApp(),
      )
      expect(response.status).toBe(200)
      expect(await stateOf(m.cookie, started.request)).toBe('passed')
    })
  })

  describe('the signed request (JAR by reference, x509_san_dns)', () => {
    it('the wallet verifies the signed request against its x5c certificate and the pass works', async () => {
      const m = await member()
      const started = await start(m.cookie)
      const { response } = await present(
        started.link,
        await issuer.issue({ ageOver18: true }),
        viaApp(),
      )
      expect(response.status).toBe(200)
      expect(await stateOf(m.cookie, started.request)).toBe('passed')
    })

    it('a request object changed after signing is refused by the wallet, which answers nothing', async () => {
      const m = await member()
      const started = await start(m.cookie)
      let posted = false
      const tampered = (url: string) =>
        getVia(app)(url).then(async (res) => {
          const [h, p, sig] = (await res.text()).split('.')
          const payload = JSON.parse(Buffer.from(p ?? '', 'base64url').toString())
          payload.response_uri = `${BASE}/api/age_response.php?request=elsewhere`
          const changed = Buffer.from(JSON.stringify(payload)).toString('base64url')
          return new Response(`${h}.${changed}.${sig}`, { headers: res.headers })
        })
      await expect(
        present(started.link, await issuer.issue({ ageOver18: true }), {
          get: tampered,
          post: async (url, body) => {
            posted = true
            return postVia(app)(url, body)
          },
        }),
      ).rejects.toThrow()
      expect(posted).toBe(false)
      expect(await stateOf(m.cookie, started.request)).toBe('pending')
    })

    it('a request signed for another host name is refused by the wallet (SAN dNSName)', async () => {
      // A site whose signing certificate names another host than its own.
      const elsewhere = generatedVerifier(t.db)
      const wrongCert = createApi({
        db: t.db,
        accounts: { mailer: createMailer({ devListing: true }), trustProxy: false },
        age: {
          providers: {
            'eu-av': euAvProvider({
              trustAnchors: [issuer.anchorDer],
              verifier: () => elsewhere('elsewhere.example'),
            }),
          },
        },
      })
      const m = await member()
      const res = await send(wrongCert, '/api/age_assurance.php', {
        method: 'POST',
        body: { provider: 'eu-av' },
        cookie: m.cookie,
      })
      const started = AgeStartResponse.parse(await res.json())
      await expect(
        present(started.link, await issuer.issue({ ageOver18: true }), viaApp(wrongCert)),
      ).rejects.toThrow(/san dns names/)
      expect(await stateOf(m.cookie, started.request)).toBe('pending')
    })

    it('the request object is served only while the request is pending: 410 once answered or expired, 404 unknown', async () => {
      const m = await member()
      const started = await start(m.cookie)
      const uri = new URL(started.link).searchParams.get('request_uri') ?? ''
      expect((await getVia(later)(uri)).status).toBe(410)
      expect((await send(app, uri.slice(BASE.length), { method: 'HEAD' })).status).toBe(200)
      await present(started.link, await issuer.issue({ ageOver18: true }), viaApp())
      expect((await getVia(app)(uri)).status).toBe(410)
      expect((await send(app, uri.slice(BASE.length), { method: 'HEAD' })).status).toBe(410)
      expect((await getVia(app)(`${BASE}/api/age_request_object.php?request=nope`)).status).toBe(
        404,
      )
      expect((await getVia(app)(`${BASE}/api/age_request_object.php`)).status).toBe(400)
    })
  })

  describe('requests', () => {
    it('a member sees only their own requests; garbage and unknown ids are refused, never a 500', async () => {
      const a = await member()
      const b = await member()
      const started = await start(a.cookie)
      expect(
        (await send(app, `/api/age_request.php?request=${started.request}`, { cookie: b.cookie }))
          .status,
      ).toBe(404)
      expect(
        (await send(app, '/api/age_request.php?request=nope', { cookie: a.cookie })).status,
      ).toBe(404)
      const garbage = await postVia(app)(
        `${BASE}/api/age_response.php?request=${started.request}`,
        'vp_token=%7B%7D',
      )
      expect(garbage.status).toBe(422)
      const unknown = await postVia(app)(
        `${BASE}/api/age_response.php?request=unknown`,
        'vp_token=x',
      )
      expect(unknown.status).toBe(404)
      expect((await send(app, '/api/age_assurance.php', { method: 'POST', body: {} })).status).toBe(
        403,
      )
    })
  })
})
