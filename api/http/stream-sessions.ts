// The sessions of a process's open event streams (GET /api/events.php),
// checked together: one statement per period for all of them
// (liveSessionsOf), not one per stream. The client does not poll while its
// stream is up, so this check is what ends a stream whose session ended
// (logout elsewhere, expiry, a ban, the account deleted). docs/live.md,
// "Stream upkeep".
import type { Db } from '../../db/client.ts'
import { streamSessionChecks } from './metrics.ts'
import { liveSessionsOf } from './session.ts'

export interface StreamSessions {
  /**
   * Watches a stream's session: `ended` is called (once) by the first
   * check that finds it no longer live. Returns the way to stop watching.
   */
  watch(sessionId: number, ended: () => void): () => void
  /**
   * watch with the stream as one object, no closures (an open event stream
   * keeps only its object here, api/http/live-streams.ts): `stream.end()`
   * is called by the first check that finds the session no longer live.
   * Stop with `remove`; adding one twice watches it once.
   */
  add(sessionId: number, stream: SessionStream): void
  remove(sessionId: number, stream: SessionStream): boolean
  /** Streams watched (the benchmark and tests read it). */
  readonly size: number
  /** Runs a check now (tests; the timer calls it every period). */
  check(): Promise<void>
}

/** A watched stream: how a check ends it. */
export interface SessionStream {
  end(): void
}

export interface StreamSessionsOptions {
  /** The period between checks (EVENTS_SESSION_CHECK_MS). */
  everyMs: number
  /** The clock (tests move it). */
  now?: () => Date
  /** Where a failed check is told (default console.error). */
  log?: (line: string) => void
}

/**
 * Per session id, its streams (a member's tabs share a session), and the
 * timer that runs `tick` every `everyMs` while any is watched.
 */
function watchedSessions(everyMs: number, tick: () => void) {
  const watched = new Map<number, Set<SessionStream>>()
  let size = 0
  let timer: NodeJS.Timeout | undefined
  const add = (sessionId: number, stream: SessionStream) => {
    let streams = watched.get(sessionId)
    if (!streams) {
      streams = new Set()
      watched.set(sessionId, streams)
    }
    if (streams.has(stream)) return
    streams.add(stream)
    size++
    if (!timer) {
      timer = setInterval(tick, everyMs)
      timer.unref?.()
    }
  }

  /** Stops watching `stream`; whether it was watched. */
  const remove = (sessionId: number, stream: SessionStream): boolean => {
    const streams = watched.get(sessionId)
    if (!streams?.delete(stream)) return false
    size--
    if (streams.size === 0) watched.delete(sessionId)
    if (size === 0 && timer) {
      clearInterval(timer)
      timer = undefined
    }
    return true
  }

  return { watched, add, remove, size: () => size }
}

/**
 * The watch of one process. The timer runs only while a stream is watched.
 * A stream is checked at most `everyMs` after its session ended plus the
 * statement's time, as soon as its own check every `everyMs` used to be.
 * A check that fails (the database away) ends nothing: the next one tries
 * again, rather than sending every member's device into a reconnect at once.
 */
export function createStreamSessions(db: Db, options: StreamSessionsOptions): StreamSessions {
  const now = options.now ?? (() => new Date())
  const log = options.log ?? ((line: string) => console.error(line))
  let running: Promise<void> | undefined
  const { watched, add, remove, size } = watchedSessions(options.everyMs, () => void check())

  const run = async () => {
    const ids = [...watched.keys()]
    if (ids.length === 0) return
    streamSessionChecks.inc()
    let live: Set<number>
    try {
      live = await liveSessionsOf(db, ids, now())
    } catch (e) {
      log(`events: checking ${ids.length} stream session(s) failed: ${String(e)}`)
      return
    }
    for (const id of ids) {
      if (live.has(id)) continue
      for (const stream of [...(watched.get(id) ?? [])]) {
        // Once: a stream removed meanwhile (by another's end) is not ended.
        if (remove(id, stream)) stream.end()
      }
    }
  }

  const check = () => {
    // One check at a time: a slow one is not stacked on.
    running ??= run().finally(() => {
      running = undefined
    })
    return running
  }

  return {
    watch(sessionId, ended) {
      const stream: SessionStream = { end: ended }
      add(sessionId, stream)
      return () => {
        remove(sessionId, stream)
      }
    },
    add,
    remove,
    get size() {
      return size()
    },
    check,
  }
}
