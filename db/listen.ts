// LISTEN on PostgreSQL through a connection of its own (a pooled one could be
// handed to a query). PostgreSQL ends that connection on a restart, a
// failover or pg_terminate_backend; this says so once (`onLost`) and leaves
// listening again to the caller (api/events/bus.ts retries with backoff).
import pg from 'pg'

/**
 * LISTEN on a channel, or on several through the one connection (each
 * payload comes with its channel); resolves to the way to stop (UNLISTEN and
 * close). `onLost` is called once if the server ends the connection after
 * LISTEN is in place (a restart, a failover, pg_terminate_backend): nothing
 * arrives on it any more and the caller listens again (api/events/bus.ts).
 */
export type Listen = (
  channel: string | readonly string[],
  onPayload: (payload: string, channel: string) => void,
  onLost?: (error: Error) => void,
) => Promise<() => Promise<void>>

const CHANNEL = /^[a-z_]{1,63}$/

/** The channels of a Listen call, each checked (they are spliced into LISTEN). */
export function channelsOf(channel: string | readonly string[]): readonly string[] {
  const channels = typeof channel === 'string' ? [channel] : channel
  for (const c of channels) if (!CHANNEL.test(c)) throw new Error(`bad channel name ${c}`)
  return channels
}

/**
 * The application_name of every LISTEN connection: an operator (or a test)
 * finds it in pg_stat_activity. A DATABASE_URL that sets application_name
 * itself wins.
 */
export const LISTEN_APPLICATION_NAME = 'amora listen'

export function pgListen(url: string): Listen {
  return async (channel, onPayload, onLost) => {
    const channels = channelsOf(channel)
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
      console.error('listen: connection error', channels.join(','), e.message)
      lost(e)
    })
    client.on('end', () => lost(new Error('the LISTEN connection ended')))
    client.on('notification', (n) => {
      if (channels.includes(n.channel)) onPayload(n.payload ?? '', n.channel)
    })
    try {
      await client.connect()
      for (const c of channels) await client.query(`LISTEN ${c}`)
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
