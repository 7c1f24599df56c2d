// A member's live event stream (GET /api/events.php) as one small object:
// it is the bus's subscriber (its pokes, its end), the session watch's entry
// and the keep-alive ticker's, and holds the response it writes to (Node's
// ServerResponse, api/http/sse.ts), nothing of the request. One interval for
// all of a process's keep-alives walks them a slice at a time instead of a
// timer per stream. docs/live.md, "Stream memory".
import type { Context } from 'hono'
import type { Poke } from '../contract/index.ts'
import type { BusStream, EventBus } from '../events/bus.ts'
import { openStreams } from './metrics.ts'
import { type SseSink, type SseStream, sseAnswer } from './sse.ts'
import type { SessionStream, StreamSessions } from './stream-sessions.ts'

/** How long a client waits before it tries the stream again when this process has no LISTEN. */
export const EVENTS_RETRY_DOWN_MS = 5000
/** How long a client waits before it reconnects a stream that ended (the `ready` event's retry). */
export const EVENTS_RETRY_MS = 3000

/**
 * A stream whose client has not taken this much written text (pokes queued
 * in the socket's buffer) is ended rather than buffered further: the client
 * reconnects and, with Last-Event-ID, pulls everything once. A poke is about
 * 100 bytes, so this is hundreds of pokes unread.
 */
export const MAX_UNREAD_BYTES = 64 * 1024

/** The keep-alive walk's slices: a stream in each, one slice per tick, so a period's writes are spread. */
const MAX_SLICES = 15

/**
 * One interval for the keep-alives of every stream: the period is cut in up
 * to 15 slices (one a second at 15 s), a stream joins the slice walked last,
 * so its first keep-alive comes one period later (less up to a slice), and
 * every period after.
 */
export function keepAliveTicker<S extends { keepAlive(): void }>(everyMs: number) {
  const count = Math.max(1, Math.min(MAX_SLICES, Math.floor(everyMs / 1000)))
  const slices = Array.from({ length: count }, () => new Set<S>())
  let at = 0
  let size = 0
  let timer: NodeJS.Timeout | undefined
  const tick = () => {
    at = (at + 1) % count
    for (const stream of slices[at]!) stream.keepAlive()
  }
  return {
    /** Adds a stream; returns its slice (for remove). */
    add(stream: S): number {
      slices[at]!.add(stream)
      size++
      if (!timer) {
        timer = setInterval(tick, everyMs / count)
        timer.unref?.()
      }
      return at
    },
    remove(stream: S, slice: number): void {
      if (!slices[slice]?.delete(stream)) return
      size--
      if (size === 0 && timer) {
        clearInterval(timer)
        timer = undefined
      }
    },
    /** The slices and the time between two. */
    slices: count,
    tickMs: everyMs / count,
    get size() {
      return size
    },
  }
}

/** What a process's streams share. */
interface Hub {
  events: EventBus
  sessions: StreamSessions
  keepAlives: ReturnType<typeof keepAliveTicker<MemberStream>>
}

const NEW = 0
const OPEN = 1
const ENDED = 2

/** One member's open stream. */
class MemberStream implements SseStream, BusStream, SessionStream {
  private sink: SseSink | undefined
  private state: typeof NEW | typeof OPEN | typeof ENDED = NEW
  /** The last event id sent. */
  private id = 0
  /** The keep-alive slice it is in (-1: none yet). */
  private slice = -1

  constructor(
    private readonly hub: Hub,
    private readonly memberId: number,
    private readonly sessionId: number,
    /** The client came back after a gap (Last-Event-ID): it is told to pull everything once. */
    private readonly resume: boolean,
  ) {}

  start(sink: SseSink): void {
    if (this.state !== NEW) return
    this.sink = sink
    this.state = OPEN
    openStreams.inc()
    // The bus ends the stream when LISTEN is down or the process drains
    // (api/events/bus.ts): the client polls and reconnects (sync/core/stream.ts).
    this.hub.events.join(this.memberId, this)
    this.hub.sessions.add(this.sessionId, this)
    this.hub.events.ready(this.memberId).then(
      () => this.ready(),
      () => this.down(),
    )
  }

  private ready(): void {
    if (this.state !== OPEN) return
    this.write(`event: ready\ndata: \nretry: ${EVENTS_RETRY_MS}\n\n`)
    // Pokes have no replay (NOTIFY): a client coming back after a gap is told to pull once.
    if (this.resume) this.poke({ type: 'sync' })
    this.slice = this.hub.keepAlives.add(this)
  }

  /** No pokes can come (LISTEN down, the process stopping): end at once, without `ready`, so the client keeps polling. */
  private down(): void {
    if (this.state !== OPEN) return
    this.write(`data: \nretry: ${EVENTS_RETRY_DOWN_MS}\n\n`)
    this.end()
  }

  poke(poke: Poke): void {
    if (this.state !== OPEN) return
    // A client that does not read is not buffered for without bound.
    if (this.sink!.writableLength > MAX_UNREAD_BYTES) {
      this.end()
      return
    }
    this.write(`event: poke\ndata: ${JSON.stringify(poke)}\nid: ${++this.id}\n\n`)
  }

  keepAlive(): void {
    // A full buffer says the connection is there; another keep-alive would only wait in it.
    if (this.state === OPEN && !this.sink!.writableNeedDrain) this.write(': keep-alive\n\n')
  }

  /** Ends the stream (the bus, its session's check, or a client not reading). */
  end(): void {
    if (this.state !== OPEN) return
    this.state = ENDED
    this.leave()
    this.sink!.end()
    this.sink = undefined
  }

  /** The client went away. */
  closed(): void {
    if (this.state === OPEN) {
      this.state = ENDED
      this.leave()
      this.sink = undefined
    } else this.state = ENDED
  }

  private leave(): void {
    openStreams.dec()
    this.hub.events.leave(this.memberId, this)
    this.hub.sessions.remove(this.sessionId, this)
    if (this.slice >= 0) this.hub.keepAlives.remove(this, this.slice)
  }

  private write(text: string): void {
    this.sink!.write(text)
  }
}

/**
 * The event streams of one app: `answer(c, memberId, sessionId)` is the
 * route's answer. Streams end when the client goes, the bus ends them, or
 * their session's check finds the session gone.
 */
export function liveStreams(events: EventBus, sessions: StreamSessions, keepAliveMs: number) {
  const hub: Hub = { events, sessions, keepAlives: keepAliveTicker<MemberStream>(keepAliveMs) }
  return {
    answer(c: Context, memberId: number, sessionId: number): Response {
      const resume = c.req.header('last-event-id') !== undefined
      return sseAnswer(c, new MemberStream(hub, memberId, sessionId, resume))
    },
    /** Streams between `ready` and their end (tests). */
    get keepingAlive() {
      return hub.keepAlives.size
    },
  }
}
