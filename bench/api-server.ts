// The API in the benchmark's own process on a free loopback port, for the
// benchmarks that measure it over HTTP (bench/messages.ts, live-signals.ts).
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { createApi } from '../api/app.ts'
import { createEventBus } from '../api/events/bus.ts'
import { createMailer } from '../api/mail/mailer.ts'
import type { TestDatabase } from '../api/test/databases.ts'
import type { Db } from '../db/client.ts'

export interface Server {
  url: string
  close(): Promise<void>
}

/** `options`: what a benchmark sets beyond the defaults (e.g. no member limits, a silent log). */
export async function startServer(
  db: Db,
  listen: TestDatabase['listen'],
  options: Partial<Parameters<typeof createApi>[0]> = {},
): Promise<Server> {
  const events = createEventBus(listen)
  await events.ready()
  const app = createApi({
    db,
    events,
    ...options,
    accounts: {
      mailer: createMailer({ devListing: false }),
      trustProxy: false,
      publicUrl: undefined,
    },
  })
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise((r) => server.once('listening', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await events.close()
      ;(server as unknown as { closeAllConnections(): void }).closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }
}
