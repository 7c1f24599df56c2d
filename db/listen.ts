// LISTEN on PostgreSQL through a connection of its own (a pooled one could be
// handed to a query). PostgreSQL ends that connection on a restart, a
// failover or pg_terminate_backend; this says so once (`onLost`) and leaves
// listening again to the caller (api/events/bus.ts retries with backoff).
import pg from 'pg'

/**
 * A LISTEN in place: `change` LISTENs on more channels and UNLISTENs others
 * in one round trip (the event bus listens on the channel of each member
 * with a stream in this process, api/events/bus.ts); `stop` ends it.
 */
export interface Listening {
  change(add: readonly string[], remove: readonly string[]): Promise<void>
  stop(): Promise<void>
}

/**
 * LISTEN on a channel, or on several through the one connection (each
 * payload comes with its channel); resolves to the LISTEN in place, whose
 * channels can change. `onLost` is called once if the server ends the
 * connection after LISTEN is in place (a restart, a failover,
 * pg_terminate_backend): nothing arrives on it any more and the caller
 * listens again (api/events/bus.ts).
 */
export type Listen = (
  channel: string | readonly string[],
  onPayload: (payload: string, channel: string) => void,
  onLost?: (error: Error) => void,
) => Promise<Listening>

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/

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
      console.error('listen: connection error', e.message)
      lost(e)
    })
    client.on('end', () => lost(new Error('the LISTEN connection ended')))
    // PostgreSQL sends a connection only what it LISTENs on: everything
    // that arrives is passed on (one just UNLISTENed may still come, and the
    // caller drops what it no longer wants).
    client.on('notification', (n) => onPayload(n.payload ?? '', n.channel))
    try {
      await client.connect()
      if (channels.length > 0) await client.query(channels.map((c) => `LISTEN ${c}`).join('; '))
    } catch (e) {
      await client.end().catch(() => undefined)
      throw e
    }
    listening = true
    return {
      async change(add, remove) {
        const statements = [
          ...channelsOf(add).map((c) => `LISTEN ${c}`),
          ...channelsOf(remove).map((c) => `UNLISTEN ${c}`),
        ]
        if (statements.length === 0) return
        // One simple query, however many channels: one round trip.
        await client.query(statements.join('; '))
      },
      async stop() {
        listening = false
        await client.end()
      },
    }
  }
}
