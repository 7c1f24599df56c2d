// LISTEN on PostgreSQL through a connection of its own (a pooled one could be
// handed to a query). PostgreSQL ends that connection on a restart, a
// failover or pg_terminate_backend; this says so once (`onLost`) and leaves
// listening again to the caller (api/events/bus.ts retries with backoff).
import pg from 'pg'

/**
 * LISTEN on a channel; resolves to the way to stop (UNLISTEN and close).
 * `onLost` is called once if the server ends the connection after LISTEN is
 * in place (a restart, a failover, pg_terminate_backend): nothing arrives on
 * it any more and the caller listens again (api/events/bus.ts).
 */
export type Listen = (
  channel: string,
  onPayload: (payload: string) => void,
  onLost?: (error: Error) => void,
) => Promise<() => Promise<void>>

/**
 * The application_name of every LISTEN connection: an operator (or a test)
 * finds it in pg_stat_activity. A DATABASE_URL that sets application_name
 * itself wins.
 */
export const LISTEN_APPLICATION_NAME = 'amora listen'

const CHANNEL = /^[a-z_]{1,63}$/

export function pgListen(url: string): Listen {
  return async (channel, onPayload, onLost) => {
    if (!CHANNEL.test(channel)) throw new Error(`bad channel name ${channel}`)
    const client = new pg.Client({
      connectionString: url,
      application_name: LISTEN_APPLICATION_NAME,
    })
    // Listening: LISTEN is in place and nobody asked to stop. Only then is an
    // end of the connection a loss to report; before, the returned promise fails.
    let listening = false
    const lost = (e: Error) => {
      if (!listening) return
      listening = false
      // The connection is dead: close it for good (no-op if already ended).
      client.end().catch(() => undefined)
      onLost?.(e)
    }
    client.on('error', (e) => {
      console.error('listen: connection error', channel, e.message)
      lost(e)
    })
    client.on('end', () => lost(new Error('the LISTEN connection ended')))
    client.on('notification', (n) => {
      if (n.channel === channel) onPayload(n.payload ?? '')
    })
    try {
      await client.connect()
      await client.query(`LISTEN ${channel}`)
    } catch (e) {
      await client.end().catch(() => undefined)
      throw e
    }
    listening = true
    return async () => {
      listening = false
      await client.end()
    }
  }
}
