// The real entry (api/start.ts under node, as `npm start` runs it) with the
// settings of a production start: no demo data, NODE_ENV=production, a public
// URL, and a Mollie key pointed at the local Mollie stand-in
// (api/test/mollie-fake.ts, which speaks Mollie's REST API over TLS). Two
// holes of the outside audit hid in start-up and module loading, where tests
// that build the app in-process cannot see them:
// - a MOLLIE_API_KEY crashed the start (`createMollieClient is not a
//   function`: the package's default import under Node's own loader);
// - the start called the handler without the connection, so every client's
//   address was "unknown" and each per-address rate limit was one bucket for
//   the whole site.
// Clients are told apart by their loopback source address (127.0.0.2 and up).
import { randomUUID } from 'node:crypto'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MollieFake, startMollieFake } from '../api/test/mollie-fake.ts'
import { freePort, type Site, startSite } from './harness.ts'

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** One HTTP request to the site from the loopback address `from`, as a browser on the site sends it. */
function call(
  site: Site,
  path: string,
  {
    method = 'GET',
    body,
    cookie,
    from = '127.0.0.2',
    form = false,
    origin = method !== 'GET',
  }: {
    method?: string
    body?: unknown
    cookie?: string | undefined
    from?: string
    form?: boolean
    origin?: boolean
  } = {},
): Promise<Answer> {
  const url = new URL(path, site.url)
  const payload =
    body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        localAddress: from,
        headers: {
          ...(payload === undefined
            ? {}
            : {
                'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
              }),
          ...(origin ? { origin: site.url } : {}),
          ...(cookie ? { cookie } : {}),
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          text += chunk
        })
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        )
      },
    )
    req.once('error', reject)
    req.end(payload)
  })
}

const sessionOf = (answer: Answer) =>
  ([answer.headers['set-cookie']].flat().find((c) => c?.startsWith('sid=')) ?? '').split(';')[0]

let signups = 0
const newMemberBody = () => ({
  email: `buyer-${++signups}-${randomUUID().slice(0, 8)}@example.com`,
  name: 'Buyer',
  password: 'a long enough secret',
  timezone: 'Europe/Amsterdam',
  country: 'NL',
  language: 'en',
  form_path: '/signup',
})

describe('a production start (api/start.ts) with a Mollie key', () => {
  let fake: MollieFake
  let site: Site

  beforeAll(async () => {
    fake = await startMollieFake()
    const port = await freePort()
    site = await startSite({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      NODE_ENV: 'production',
      DEMO_SEED: 'off',
      MOLLIE_API_KEY: fake.apiKey,
      MOLLIE_API_ENDPOINT: fake.endpoint,
      // The stand-in's certificate is self-signed, and the Mollie SDK pins its
      // own CA bundle (its https.Agent's `ca`), so NODE_EXTRA_CA_CERTS cannot
      // vouch for it: certificate checks are off for this test process only.
      NODE_TLS_REJECT_UNAUTHORIZED: '0',
    })
  })
  afterAll(async () => {
    await site?.stop()
    await fake?.close()
  })

  it('starts, says it takes payments through Mollie, and takes one: order → checkout → webhook → credits', async () => {
    expect(site.output()).toContain('start: payments through Mollie')
    const signup = await call(site, '/api/user.php?new=1', {
      method: 'POST',
      body: newMemberBody(),
      from: '127.0.0.20',
    })
    expect(signup.status, signup.body).toBe(200)
    const cookie = sessionOf(signup)
    const ordered = await call(site, '/api/orders.php', {
      method: 'POST',
      body: {
        package: 'popular',
        method: 'ideal',
        client_id: randomUUID(),
        withdrawal_consent: true,
      },
      cookie,
      from: '127.0.0.20',
    })
    expect(ordered.status, `${ordered.body}\n${site.output().slice(-2000)}`).toBe(201)
    const order = JSON.parse(ordered.body) as {
      checkout_url: string
      transaction: { id: string; credits: number; status: string }
    }
    // The member goes to Mollie's checkout; the payment is Mollie's, made through its SDK.
    expect(order.checkout_url).toMatch(/^https:\/\/www\.mollie\.com\/checkout\//)
    expect(fake.calls).toContain('POST /v2/payments')
    const [payment] = [...fake.payments.values()]
    expect(payment?.webhookUrl).toBe(`${site.url}/api/payments/webhook.php`)
    // Before Mollie's word nothing is granted, whatever the return page shows.
    const before = await call(site, '/api/credits.php', { cookie, from: '127.0.0.20' })
    expect(JSON.parse(before.body)).toMatchObject({ credits: 0 })
    // The member pays at Mollie; Mollie posts the payment id to the webhook.
    fake.setStatus(payment?.id ?? '', 'paid')
    const webhook = await call(site, '/api/payments/webhook.php', {
      method: 'POST',
      body: `id=${payment?.id}`,
      form: true,
      origin: false,
      from: '127.0.0.99',
    })
    expect(webhook.status).toBe(200)
    const after = await call(site, '/api/credits.php', { cookie, from: '127.0.0.20' })
    expect(JSON.parse(after.body)).toMatchObject({ credits: order.transaction.credits })
    const tx = await call(site, `/api/transactions.php?id=${order.transaction.id}`)
    expect(JSON.parse(tx.body)).toMatchObject({ status: 'paid' })
  })

  it('has no test checkout: a forged "paid" press finds nothing', async () => {
    const res = await call(site, '/api/payments/checkout.php', {
      method: 'POST',
      body: 'id=tr_forged&action=paid',
      form: true,
    })
    expect(res.status).toBe(404)
  })

  it('counts sign-ups per client address: 11 clients sign up, the 11th from one address is refused', async () => {
    // The sign-up limit is 10 an hour per address (api/http/ratelimit.ts).
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      const res = await call(site, '/api/user.php?new=1', {
        method: 'POST',
        body: newMemberBody(),
        from: `127.0.1.${i + 1}`,
      })
      statuses.push(res.status)
    }
    expect(statuses, 'one sign-up from each of 11 addresses').toEqual(Array(11).fill(200))
    const fromOne: number[] = []
    for (let i = 0; i < 11; i++) {
      const res = await call(site, '/api/user.php?new=1', {
        method: 'POST',
        body: newMemberBody(),
        from: '127.0.2.1',
      })
      fromOne.push(res.status)
    }
    expect(fromOne.slice(0, 10)).toEqual(Array(10).fill(200))
    expect(fromOne[10], 'the 11th from one address').toBe(429)
  })

  it('wrong passwords from another address do not lock the owner out of their own account', async () => {
    const body = newMemberBody()
    const signup = await call(site, '/api/user.php?new=1', {
      method: 'POST',
      body,
      from: '127.0.3.1',
    })
    expect(signup.status).toBe(200)
    const attacker: number[] = []
    for (let i = 0; i < 12; i++) {
      const res = await call(site, '/api/login.php', {
        method: 'POST',
        body: { email: body.email, password: 'not the password' },
        from: '127.0.3.66',
      })
      attacker.push(res.status)
    }
    expect(attacker.at(-1), 'the attacker is slowed down').toBe(429)
    const owner = await call(site, '/api/login.php', {
      method: 'POST',
      body: { email: body.email, password: body.password },
      from: '127.0.3.1',
    })
    expect(owner.status, owner.body).toBe(200)
  })
})
