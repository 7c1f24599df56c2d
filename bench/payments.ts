// Payments at volume: 1,000 distinct paid payments, each delivered twice at
// once to the webhook, and every balance still equal to its ledger sum. The
// run that used to be a test in api/payments/payments.test.ts (too slow for
// the suite on a busy machine); the suite keeps the property test
// api/credits/ledger.property.test.ts and the 200 concurrent deliveries of
// one payment.
//
//   node --import tsx bench/payments.ts [--payments=1000] [--buyers=10] [--batch=100]
//                                       [--only=pglite,postgres]
//
// PGlite always; PostgreSQL as well when BENCH_DATABASE_URL or DATABASE_URL
// names a server (a throw-away database on it, dropped at the end). The
// orders and their paid local payments are written in bulk; what is timed is
// the webhook deliveries through the app's own request handling
// (createApi(...).request), `batch` payments (2 × batch requests) at a time.
// Prints the time and payments per second, then OK, or FAILED and exit 1
// when a balance differs from its ledger sum or from what was bought. A
// benchmark: it never fails on a time.
import { randomUUID } from 'node:crypto'
import { balanceOf, ledgerSum } from '../api/credits/index.ts'
import type { Engine } from '../api/test/databases.ts'
import { paymentsApp } from '../api/test/payments-app.ts'
import { addMembers } from '../api/test/seed.ts'
import { localPayments, orders } from '../db/schema/index.ts'
import { loadavg } from './http.ts'

const arg = (name: string, fallback: number) => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`))
  const n = hit ? Number(hit.split('=')[1]) : fallback
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be an integer >= 1`)
  return n
}
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.split('=')[1]
  ?.split(',')

const PAYMENTS = arg('payments', 1000)
const BUYERS = arg('buyers', 10)
const BATCH = arg('batch', 100)
/** The starter package: what each order costs and grants. */
const STARTER = { credits: 100, eur: 995 }

// paymentsApp('postgres') makes its throw-away database on DATABASE_URL's server.
const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL
if (serverUrl) process.env.DATABASE_URL = serverUrl

/** One run on `engine`; false when a balance is wrong. */
async function run(engine: Engine): Promise<boolean> {
  const payments = await paymentsApp(engine)
  const { app } = payments
  const { db } = payments.database
  try {
    const buyers = await addMembers(
      db,
      Array.from({ length: BUYERS }, () => ({})),
    )
    // The orders and their paid payments in bulk: the deliveries are what is timed.
    const made = Array.from({ length: PAYMENTS }, (_, i) => ({
      publicId: `bulk${String(i).padStart(16, '0')}`,
      paymentId: `tr_bulk${String(i).padStart(8, '0')}`,
      memberId: buyers[i % buyers.length]!.id,
    }))
    for (let i = 0; i < made.length; i += 1000) {
      const chunk = made.slice(i, i + 1000)
      await db.insert(orders).values(
        chunk.map((o) => ({
          ...o,
          clientId: randomUUID(),
          packageId: 'starter',
          method: 'creditcard',
          currency: 'EUR',
          amount: STARTER.eur,
          credits: STARTER.credits,
          provider: 'local',
        })),
      )
      await db.insert(localPayments).values(
        chunk.map((o) => ({
          id: o.paymentId,
          status: 'paid',
          currency: 'EUR',
          amount: STARTER.eur,
          description: 'bulk',
          orderId: o.publicId,
        })),
      )
    }

    // The provider's webhook as Mollie posts it: a form with the payment id, no Origin.
    let failed = 0
    const webhook = async (id: string) => {
      const res = await app.request('http://localhost/api/payments/webhook.php', {
        method: 'POST',
        headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' },
        body: `id=${encodeURIComponent(id)}`,
      })
      if (res.status !== 200) failed++
      await res.arrayBuffer()
    }

    const load = loadavg()
    const started = performance.now()
    for (let i = 0; i < made.length; i += BATCH)
      await Promise.all(
        made.slice(i, i + BATCH).flatMap((o) => [webhook(o.paymentId), webhook(o.paymentId)]),
      )
    const seconds = (performance.now() - started) / 1000

    // Each buyer bought every BUYERS-th payment, each granted once.
    let ok = failed === 0
    const wrong: string[] = []
    for (const [n, b] of buyers.entries()) {
      const bought = Math.ceil((PAYMENTS - n) / BUYERS) * STARTER.credits
      const balance = await balanceOf(db, b.id)
      const sum = await ledgerSum(db, b.id)
      if (balance !== sum || balance !== bought) {
        ok = false
        wrong.push(`member ${b.id}: balance ${balance}, ledger sum ${sum}, bought ${bought}`)
      }
    }
    console.log(
      `\n${engine === 'pglite' ? 'PGlite' : 'PostgreSQL'}: ${PAYMENTS.toLocaleString('en')} payments × 2 deliveries at once (${BATCH} payments a batch), ${BUYERS} buyers`,
    )
    console.log(
      `  ${seconds.toFixed(1)} s, ${(PAYMENTS / seconds).toFixed(0)} payments/s (${((2 * PAYMENTS) / seconds).toFixed(0)} deliveries/s); load average ${load} before, ${loadavg()} after`,
    )
    if (failed > 0) console.log(`  ${failed} deliveries not answered 200`)
    for (const line of wrong) console.log(`  ${line}`)
    console.log(
      `  every balance equals its ledger sum and what was bought: ${ok ? 'OK' : 'FAILED'}`,
    )
    return ok
  } finally {
    await payments.close()
  }
}

console.log(`bench/payments.ts on ${new Date().toISOString()}`)
const engines = (['pglite', 'postgres'] as const).filter(
  (e) => (e === 'pglite' || serverUrl) && (!only || only.includes(e)),
)
if (!serverUrl) console.log('BENCH_DATABASE_URL and DATABASE_URL unset: PGlite only')
let allOk = true
for (const engine of engines) if (!(await run(engine))) allOk = false
process.exit(allOk ? 0 : 1)
