// The worker's account calls against a real Dexie store (fake-indexeddb) and
// a stubbed fetch: the email check aborts the previous one, failures stay
// failures (not status invalid, docs/accounts.md), sign-up adopts the new member (or not, when the
// address was taken), uploads go out as multipart, deletion wipes the store.
// fake-indexeddb must be installed before Dexie loads: keep this import first.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AccountUser } from '../../api/contract/index.ts'
import { SyncEngine, type SyncEvent } from '../engine.ts'
import { LocalDb } from '../store/store.ts'
import { type AccountHandlers, accountHandlers } from './account.ts'

const accountUser = (): AccountUser => ({
  email: 'eva@ziggo.nl',
  profile: {
    id: 9,
    name: 'Eva',
    age: 30,
    city: null,
    country: 'NL',
    countryregion: null,
    gender: 'female',
    personal: null,
    images: [],
    main_image: null,
    fictional: false,
    verified: false,
    date_of_birth: '1995-01-01',
    language: 'en',
  },
  main_image: null,
  paid_user: false,
  signup_date: '2025-01-01T00:00:00.000Z',
  mailprovider: 0,
  fictional_icon: false,
  account: {
    activated: false,
    last_signup_step: 0,
    missing: ['country', 'gender', 'date_of_birth'],
    profile_fields: {},
    notes: {},
    timezone: 'UTC',
    pending_email: null,
    has_push_subscription: false,
  },
})

type Request = { url: URL; init: RequestInit }
type Handler = (r: Request) => Response | Promise<Response>
const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/** One handler per "METHOD path"; anything else is a 404. */
function stubServer(routes: Record<string, Handler>) {
  const requests: Request[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: URL | string, init: RequestInit = {}) => {
      const url = new URL(String(input))
      requests.push({ url, init })
      const handler = routes[`${init.method ?? 'GET'} ${url.pathname}`]
      return handler ? handler({ url, init }) : reply({ error: 'not_found' }, 404)
    }),
  )
  return requests
}

let db: LocalDb
let engine: SyncEngine
let api: AccountHandlers
let events: SyncEvent[]

beforeEach(() => {
  vi.stubGlobal('location', new URL('http://localhost/'))
  vi.stubGlobal('self', globalThis)
  db = new LocalDb(`account-test-${crypto.randomUUID()}`)
  engine = new SyncEngine(db)
  api = accountHandlers({
    ctx: engine.ctx,
    session: engine.session,
    setPushSubscribed: (subscribed) => engine.setPushSubscribed(subscribed),
  })
  events = []
  engine.subscribe((e) => events.push(e))
})

afterEach(async () => {
  engine.stopPolling()
  await db.delete()
})

const checkAnswer = (email: string) => ({
  status: 'new',
  token: null,
  email,
  request_email: email,
})

describe('email check (spec §5, §7, §8)', () => {
  it('a newer check aborts the one still running', async () => {
    stubServer({
      'GET /api/validate_email.php': ({ url, init }) => {
        const email = url.searchParams.get('email') ?? ''
        if (email === 'slow@ziggo.nl') {
          // Never answers on its own: only the abort ends it.
          return new Promise((_, reject) =>
            init.signal?.addEventListener('abort', () =>
              reject(new DOMException('aborted', 'AbortError')),
            ),
          )
        }
        return reply(checkAnswer(email))
      },
    })
    const first = api.validateEmail('slow@ziggo.nl')
    const second = api.validateEmail('fast@ziggo.nl')
    expect(await first).toEqual({ ok: false, error: { code: 'aborted', message: 'superseded' } })
    expect(await second).toEqual({ ok: true, value: checkAnswer('fast@ziggo.nl') })
  })

  it('a check superseded while its answer is read answers aborted, not a failure', async () => {
    let reading = () => {}
    const bodyRead = new Promise<void>((resolve) => {
      reading = resolve
    })
    stubServer({
      'GET /api/validate_email.php': ({ url, init }) => {
        const email = url.searchParams.get('email') ?? ''
        if (email !== 'slow@ziggo.nl') return reply(checkAnswer(email))
        // The head has come and the body is being read, in part: only the
        // abort ends it.
        const body = new ReadableStream<Uint8Array>(
          {
            pull(controller) {
              controller.enqueue(new TextEncoder().encode('{"status":"ne'))
              init.signal?.addEventListener('abort', () =>
                controller.error(new DOMException('aborted', 'AbortError')),
              )
              reading()
              return new Promise(() => {})
            },
          },
          { highWaterMark: 0 },
        )
        return new Response(body, { headers: { 'Content-Type': 'application/json' } })
      },
    })
    const first = api.validateEmail('slow@ziggo.nl')
    await bodyRead
    const second = api.validateEmail('fast@ziggo.nl')
    expect(await first).toEqual({ ok: false, error: { code: 'aborted', message: 'superseded' } })
    expect(await second).toEqual({ ok: true, value: checkAnswer('fast@ziggo.nl') })
  })

  it.each([
    ['a server error', () => reply({ error: 'internal_error' }, 500), 'internal_error'],
    ['a rate limit', () => reply({ error: 'rate_limited' }, 429), 'rate_limited'],
    ['no network', () => Promise.reject(new TypeError('Failed to fetch')), 'offline'],
    ['a malformed answer', () => reply({ status: 'maybe' }), 'bad_response'],
  ])('%s is a failed check, never status invalid', async (_name, handler: Handler, code) => {
    stubServer({ 'GET /api/validate_email.php': handler })
    const res = await api.validateEmail('eva@ziggo.nl')
    expect(res).toEqual({ ok: false, error: expect.objectContaining({ code }) })
  })
})

describe('sign-up', () => {
  const payload = { email: 'eva@ziggo.nl', name: 'Eva', password: 'secret' }

  it('creates the account, then adopts the member (without the account part) in the store', async () => {
    const requests = stubServer({
      'POST /api/user.php': () => reply({ status: 'received' }),
      'GET /api/user.php': () => reply(accountUser()),
    })
    const res = await api.signup(payload)
    expect(res.ok && res.value.user?.email).toBe('eva@ziggo.nl')
    const post = requests.find((r) => r.init.method === 'POST')
    expect(post?.url.searchParams.get('new')).toBe('1')
    expect(JSON.parse(String(post?.init.body))).toEqual(payload)
    const stored = await engine.getUser()
    expect(stored?.email).toBe('eva@ziggo.nl')
    expect(stored).not.toHaveProperty('account')
    expect(events).toContainEqual(expect.objectContaining({ type: 'user' }))
  })

  it('an address that had an account: same answer, no session, nothing stored', async () => {
    stubServer({
      'POST /api/user.php': () => reply({ status: 'received' }),
      'GET /api/user.php': () => reply({ error: 'not_logged_in' }, 403),
    })
    expect(await api.signup(payload)).toEqual({ ok: true, value: { user: null } })
    expect(await engine.getUser()).toBeNull()
  })

  it('passes a refusal on with its code (spec §8 alert)', async () => {
    stubServer({ 'POST /api/user.php': () => reply({ error: 'signups_closed' }, 403) })
    const res = await api.signup(payload)
    expect(res.ok).toBe(false)
    if (!res.ok) expect(res.error).toMatchObject({ code: 'signups_closed', status: 403 })
  })
})

describe('own account', () => {
  it('an update stores the fresh member', async () => {
    const updated = accountUser()
    updated.profile.city = 'Haarlem'
    const requests = stubServer({ 'PUT /api/user.php': () => reply(updated) })
    const res = await api.updateAccount({ country: 'NL', city: 'Haarlem' })
    expect(res.ok).toBe(true)
    expect(JSON.parse(String(requests[0]?.init.body))).toEqual({ country: 'NL', city: 'Haarlem' })
    expect((await engine.getUser())?.profile.city).toBe('Haarlem')
  })

  it('uploads pictures as multipart field `file`, without a JSON content type', async () => {
    const requests = stubServer({
      'POST /api/profileimage.php': () =>
        reply({
          images: [{ id: 1, thumb_filename: 't.jpg' }],
          main_image: { id: 1, thumb_filename: 't.jpg' },
        }),
      'GET /api/user.php': () => reply(accountUser()),
    })
    const file = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'me.jpg', { type: 'image/jpeg' })
    const res = await api.uploadImages([file])
    expect(res.ok).toBe(true)
    const init = requests[0]?.init
    const body = init?.body
    if (!(body instanceof FormData)) throw new Error('the upload is not multipart')
    expect(body.getAll('file')).toHaveLength(1)
    expect(init?.headers).not.toHaveProperty('Content-Type')
  })

  it('deleting the account wipes the store and tells the page', async () => {
    await db.kv.put({ key: 'user', value: accountUser() })
    stubServer({ 'DELETE /api/user.php': () => reply({ status: 'deleted' }) })
    expect((await api.deleteAccount('secret')).ok).toBe(true)
    expect(await db.kv.count()).toBe(0)
    expect(events).toContainEqual({ type: 'user', user: null })
  })

  it('a wrong password on delete keeps everything', async () => {
    await db.kv.put({ key: 'user', value: accountUser() })
    stubServer({
      'DELETE /api/user.php': () =>
        reply({ error: 'wrong_password', field: 'password', message: 'wrong_password' }, 401),
    })
    const res = await api.deleteAccount('nope')
    expect(res.ok).toBe(false)
    if (!res.ok) expect(res.error.code).toBe('wrong_password')
    expect(await db.kv.count()).toBe(1)
  })

  it('sends the push subscription to POST /api/user.php?push=1', async () => {
    const requests = stubServer({ 'POST /api/user.php': () => reply({ status: 'subscribed' }) })
    const subscription = {
      endpoint: 'https://push.example/abc',
      keys: { p256dh: 'p', auth: 'a' },
    }
    expect(await api.addPushSubscription(subscription)).toEqual({ ok: true, value: null })
    expect(requests[0]?.url.searchParams.get('push')).toBe('1')
    expect(JSON.parse(String(requests[0]?.init.body))).toEqual({ subscription })
  })
})

describe('the account answer and a logout', () => {
  it('writes nothing of the member when the logout wiped the store while the answer was out', async () => {
    let release: ((r: Response) => void) | undefined
    stubServer({
      'GET /api/user.php': () => new Promise<Response>((r) => (release = r)),
    })
    const pending = api.account()
    await vi.waitFor(() => expect(release).toBeDefined())
    await engine.session.endSession()
    release!(reply(accountUser()))
    expect((await pending).ok).toBe(true)
    expect(await db.kv.count()).toBe(0)
  })
})
