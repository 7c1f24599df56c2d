// A local stand-in for the Mollie REST API v2, for the tests of the Mollie
// adapter: the endpoints it calls (payments create/get, customers, customer
// mandates, payment refunds), answering Mollie's documented JSON (HAL, amounts
// as strings, errors as application/hal+json problem objects). HTTPS with a
// throw-away self-signed certificate, as the SDK only speaks https; the test
// process turns certificate checks off for it (NODE_TLS_REJECT_UNAUTHORIZED).
// Controls (pay, fail, refund, chargeback) stand for what happens at Mollie.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

interface Amount {
  currency: string
  value: string
}

export interface FakePayment {
  resource: 'payment'
  id: string
  mode: 'test'
  createdAt: string
  amount: Amount
  description: string
  method: string | null
  metadata: unknown
  status: 'open' | 'pending' | 'authorized' | 'paid' | 'canceled' | 'expired' | 'failed'
  isCancelable: boolean
  expiresAt: string
  profileId: string
  sequenceType: 'oneoff' | 'first' | 'recurring'
  redirectUrl: string | null
  webhookUrl: string | null
  customerId?: string
  mandateId?: string
  amountRefunded?: Amount
  amountRemaining?: Amount
  amountChargedBack?: Amount
  _links: Record<string, { href: string; type: string } | null>
}

interface FakeMandate {
  resource: 'mandate'
  id: string
  mode: 'test'
  status: 'valid' | 'pending' | 'invalid'
  method: string
  details: Record<string, string | null>
  mandateReference: string | null
  signatureDate: string
  createdAt: string
  _links: Record<string, { href: string; type: string }>
}

export interface MollieFake {
  /** Give to the SDK as `apiEndpoint`. */
  endpoint: string
  apiKey: string
  payments: Map<string, FakePayment>
  /** Every request: method and path, for tests that check what the SDK called. */
  calls: string[]
  setStatus(id: string, status: FakePayment['status']): void
  refund(id: string, minor: number): void
  chargeback(id: string, minor: number): void
  close(): Promise<void>
}

const token = (prefix: string) =>
  `${prefix}_${randomBytes(8).toString('base64url').replace(/[-_]/g, 'x')}`
const value = (minor: number) => (minor / 100).toFixed(2)
const minorOf = (a: Amount | undefined) => (a ? Math.round(Number(a.value) * 100) : 0)

/** A self-signed certificate for 127.0.0.1 (openssl, in a temp directory removed at once). */
function selfSigned(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'mollie-fake-'))
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    )
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function startMollieFake(
  apiKey = 'test_fakefakefakefakefakefakefakefake',
): Promise<MollieFake> {
  const payments = new Map<string, FakePayment>()
  const customers = new Map<string, { id: string; name: string; email: string }>()
  const calls: string[] = []
  let base = ''

  const problem = (
    res: ServerResponse,
    status: number,
    title: string,
    detail: string,
    field?: string,
  ) => {
    res.writeHead(status, { 'content-type': 'application/hal+json' })
    res.end(
      JSON.stringify({
        status,
        title,
        detail,
        ...(field ? { field } : {}),
        _links: {
          documentation: {
            href: 'https://docs.mollie.com/overview/handling-errors',
            type: 'text/html',
          },
        },
      }),
    )
  }
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/hal+json' })
    res.end(JSON.stringify(body))
  }
  const readJson = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    return text ? (JSON.parse(text) as Record<string, unknown>) : {}
  }
  /** A customer's mandates: one per paid "first" payment of theirs, as Mollie makes them. */
  const mandatesOf = (customerId: string): FakeMandate[] =>
    [...payments.values()]
      .filter(
        (p) => p.customerId === customerId && p.sequenceType === 'first' && p.status === 'paid',
      )
      .map((p) => ({
        resource: 'mandate',
        id: `mdt_${p.id.slice(3)}`,
        mode: 'test',
        status: 'valid',
        method: p.method === 'creditcard' ? 'creditcard' : 'directdebit',
        details: {
          consumerName: 'T. Tester',
          consumerAccount: 'NL55INGB0000000000',
          consumerBic: 'INGBNL2A',
        },
        mandateReference: null,
        signatureDate: p.createdAt.slice(0, 10),
        createdAt: p.createdAt,
        _links: {
          self: {
            href: `${base}customers/${customerId}/mandates/mdt_${p.id.slice(3)}`,
            type: 'application/hal+json',
          },
        },
      }))

  const server = createServer(selfSigned(), async (req, res) => {
    const url = new URL(req.url ?? '/', base)
    const path = url.pathname.replace(/^\/v2\//, '')
    calls.push(`${req.method} /v2/${path}`)
    if (req.headers.authorization !== `Bearer ${apiKey}`)
      return problem(
        res,
        401,
        'Unauthorized Request',
        'Missing authentication, or failed to authenticate',
      )
    try {
      if (req.method === 'POST' && path === 'payments') {
        const body = await readJson(req)
        const amount = body.amount as Amount | undefined
        if (!amount || !/^\d+\.\d{2}$/.test(amount.value ?? ''))
          return problem(res, 422, 'Unprocessable Entity', 'The amount is required', 'amount')
        if (typeof body.description !== 'string' || !body.description)
          return problem(
            res,
            422,
            'Unprocessable Entity',
            'The description is invalid',
            'description',
          )
        const sequenceType = (body.sequenceType as FakePayment['sequenceType']) ?? 'oneoff'
        if (sequenceType === 'recurring') {
          const customerId = body.customerId as string | undefined
          if (!customerId || mandatesOf(customerId).length === 0)
            return problem(
              res,
              422,
              'Unprocessable Entity',
              'The customer has no valid mandates',
              'customerId',
            )
        }
        const id = token('tr')
        const now = new Date()
        const recurring = sequenceType === 'recurring'
        const payment: FakePayment = {
          resource: 'payment',
          id,
          mode: 'test',
          createdAt: now.toISOString(),
          amount,
          description: body.description,
          method: (body.method as string | undefined) ?? null,
          metadata: body.metadata ?? null,
          status: recurring ? 'pending' : 'open',
          isCancelable: false,
          expiresAt: new Date(now.getTime() + 15 * 60_000).toISOString(),
          profileId: 'pfl_QkEhN94Ba',
          sequenceType,
          redirectUrl: (body.redirectUrl as string | undefined) ?? null,
          webhookUrl: (body.webhookUrl as string | undefined) ?? null,
          ...(body.customerId ? { customerId: body.customerId as string } : {}),
          ...(body.mandateId ? { mandateId: body.mandateId as string } : {}),
          _links: {
            self: { href: `${base}payments/${id}`, type: 'application/hal+json' },
            checkout: recurring
              ? null
              : {
                  href: `https://www.mollie.com/checkout/select-method/${id.slice(3)}`,
                  type: 'text/html',
                },
            dashboard: {
              href: `https://www.mollie.com/dashboard/payments/${id}`,
              type: 'text/html',
            },
            documentation: {
              href: 'https://docs.mollie.com/reference/create-payment',
              type: 'text/html',
            },
          },
        }
        if (!payment._links.checkout) delete payment._links.checkout
        payments.set(id, payment)
        return json(res, 201, payment)
      }
      const one = /^payments\/([^/]+)$/.exec(path)
      if (req.method === 'GET' && one) {
        const p = payments.get(one[1] ?? '')
        if (!p) return problem(res, 404, 'Not Found', `No payment exists with token ${one[1]}.`)
        return json(res, 200, p)
      }
      if (req.method === 'POST' && path === 'customers') {
        const body = await readJson(req)
        const id = token('cst')
        const c = { id, name: String(body.name ?? ''), email: String(body.email ?? '') }
        customers.set(id, c)
        return json(res, 201, {
          resource: 'customer',
          id,
          mode: 'test',
          name: c.name,
          email: c.email,
          locale: null,
          metadata: null,
          createdAt: new Date().toISOString(),
          _links: { self: { href: `${base}customers/${id}`, type: 'application/hal+json' } },
        })
      }
      const mandates = /^customers\/([^/]+)\/mandates$/.exec(path)
      if (req.method === 'GET' && mandates) {
        const id = mandates[1] ?? ''
        if (!customers.has(id))
          return problem(res, 404, 'Not Found', `No customer exists with token ${id}.`)
        const list = mandatesOf(id)
        return json(res, 200, {
          count: list.length,
          _embedded: { mandates: list },
          _links: {
            self: { href: `${base}customers/${id}/mandates`, type: 'application/hal+json' },
            previous: null,
            next: null,
            documentation: {
              href: 'https://docs.mollie.com/reference/list-mandates',
              type: 'text/html',
            },
          },
        })
      }
      const refunds = /^payments\/([^/]+)\/refunds$/.exec(path)
      if (req.method === 'POST' && refunds) {
        const p = payments.get(refunds[1] ?? '')
        if (!p) return problem(res, 404, 'Not Found', `No payment exists with token ${refunds[1]}.`)
        const body = await readJson(req)
        const minor = minorOf(body.amount as Amount | undefined) || minorOf(p.amount)
        // Mollie refuses a refund above what is left of the payment.
        if (p.status !== 'paid' || minor > minorOf(p.amount) - minorOf(p.amountRefunded))
          return problem(
            res,
            422,
            'Unprocessable Entity',
            'The amount is higher than the amount that can be refunded',
            'amount',
          )
        fake.refund(p.id, minor)
        return json(res, 201, {
          resource: 'refund',
          id: token('re'),
          amount: { currency: p.amount.currency, value: value(minor) },
          status: 'pending',
          createdAt: new Date().toISOString(),
          description: String(body.description ?? ''),
          paymentId: p.id,
          _links: { payment: { href: `${base}payments/${p.id}`, type: 'application/hal+json' } },
        })
      }
      return problem(res, 404, 'Not Found', 'The resource does not exist')
    } catch (e) {
      return problem(res, 400, 'Bad Request', e instanceof Error ? e.message : 'bad request')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v2/`

  const fake: MollieFake = {
    endpoint: base,
    apiKey,
    payments,
    calls,
    setStatus(id, status) {
      const p = payments.get(id)
      if (!p) throw new Error(`no payment ${id}`)
      p.status = status
      if (status !== 'open') delete p._links.checkout
      if (status === 'paid') p.amountRemaining = p.amount
    },
    refund(id, minor) {
      const p = payments.get(id)
      if (!p) throw new Error(`no payment ${id}`)
      const total = Math.min(minorOf(p.amount), minorOf(p.amountRefunded) + minor)
      p.amountRefunded = { currency: p.amount.currency, value: value(total) }
      p.amountRemaining = { currency: p.amount.currency, value: value(minorOf(p.amount) - total) }
    },
    chargeback(id, minor) {
      const p = payments.get(id)
      if (!p) throw new Error(`no payment ${id}`)
      p.amountChargedBack = { currency: p.amount.currency, value: value(minor) }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
  return fake
}
