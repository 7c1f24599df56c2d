// Server-sent event streams written straight to Node's ServerResponse, not
// through Web Streams. hono's streamSSE on @hono/node-server costs each open
// stream a TransformStream, its writer, the server's reader loop and the
// request's Context kept by them: about 24 KB a stream of the 45-65 KB
// measured (bench/RESULTS.md, "Members online per process"). Here the
// handler answers with a bodiless Response carrying @hono/node-server's
// "already sent" header, the middleware finish its headers as for any
// answer (security headers, X-Request-Id, the request log line, the
// histogram), and the app's fetch (withDirectStreams) then writes that head
// to the socket itself and hands the stream its response: from then on the
// stream keeps the ServerResponse and its own small object, nothing of the
// request. docs/live.md, "Stream memory".
//
// Without a node server (app.request in tests) the same stream is served
// through a ReadableStream, so one code path writes the events either way.
import { ServerResponse } from 'node:http'
import type { Context } from 'hono'

/**
 * @hono/node-server writes nothing for a Response with this header and no
 * body: the handler has answered on the socket itself (its
 * RESPONSE_ALREADY_SENT carries it; api/http/sse.test.ts pins the two equal).
 */
export const ALREADY_SENT = 'x-hono-already-sent'

/** Where a stream's text goes: Node's ServerResponse itself, or an adapter of the same shape. */
export interface SseSink {
  write(text: string): boolean
  end(): void
  /** Bytes written but not yet taken by the socket. */
  readonly writableLength: number
  /** The socket's buffer is full (the client is not reading). */
  readonly writableNeedDrain: boolean
}

/** An event stream's own side. */
export interface SseStream {
  /** The head is out (or the Response made): write from now on; `sink.end()` ends it. */
  start(sink: SseSink): void
  /** The client went away, or the answer never went out as a stream: stop (called once or more). */
  closed(): void
}

/** The headers of every event stream (the same set hono's streamSSE gave the route's answer). */
const HEADERS: Record<string, string> = {
  'Transfer-Encoding': 'chunked',
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-store',
  Connection: 'keep-alive',
  // A proxy must pass the stream through as it comes (nginx buffers otherwise).
  'X-Accel-Buffering': 'no',
}

const SLOT = Symbol('direct event stream')
/** What the handler leaves for withDirectStreams: the stream to start on `res` once the head is known. */
interface Slot {
  pending?: { res: ServerResponse; stream: SseStream } | undefined
}
type Bindings = { outgoing?: unknown; [SLOT]?: Slot } | undefined

/**
 * Answers `c` with an event stream run by `stream`. A HEAD gets the head
 * alone and starts nothing. Under @hono/node-server behind withDirectStreams
 * the stream writes to the socket directly; otherwise through a
 * ReadableStream body.
 */
export function sseAnswer(c: Context, stream: SseStream): Response {
  for (const [name, value] of Object.entries(HEADERS)) c.header(name, value)
  if (c.req.method === 'HEAD') return c.body(null)
  const env = c.env as Bindings
  const slot = env?.[SLOT]
  if (slot && env.outgoing instanceof ServerResponse) {
    slot.pending = { res: env.outgoing, stream }
    c.header(ALREADY_SENT, 'true')
    return c.body(null)
  }
  return c.body(webBody(stream))
}

/**
 * The stream as a ReadableStream (no node server to write to). It queues
 * what is written without a bound, as hono's streamSSE did.
 */
function webBody(stream: SseStream): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let open = true
  return new ReadableStream<Uint8Array>({
    start(controller) {
      stream.start({
        write(text) {
          if (open) controller.enqueue(encoder.encode(text))
          return open
        },
        end() {
          if (!open) return
          open = false
          controller.close()
        },
        writableLength: 0,
        writableNeedDrain: false,
      })
    },
    cancel() {
      open = false
      stream.closed()
    },
  })
}

type Fetch = (request: Request, env?: unknown, executionCtx?: never) => Response | Promise<Response>

/**
 * Makes `app.fetch` start the direct event streams its handlers answered
 * with, after every middleware has finished the answer's head. An app
 * mounted inside another one is started by the outer app's fetch.
 */
export function withDirectStreams<A extends { fetch: Fetch }>(app: A): A {
  const inner = app.fetch
  const fetch: Fetch = (request, env, executionCtx) => {
    const bindings = env as Bindings
    // Not a node server's request, or an outer app starts it.
    if (!(bindings?.outgoing instanceof ServerResponse) || bindings[SLOT]) {
      return inner(request, env, executionCtx)
    }
    const slot: Slot = {}
    bindings[SLOT] = slot
    const answer = inner(request, env, executionCtx)
    return answer instanceof Promise
      ? answer.then((a) => startPending(a, slot))
      : startPending(answer, slot)
  }
  app.fetch = fetch as A['fetch']
  return app
}

/** Writes the head of `answer` on the pending stream's response and starts it. */
function startPending(answer: Response, slot: Slot): Response {
  const pending = slot.pending
  slot.pending = undefined
  if (!pending) return answer
  const { res, stream } = pending
  // Something after the handler answered otherwise (an error): that answer goes out as usual.
  if (!answer.headers.has(ALREADY_SENT) || answer.body !== null || res.headersSent) {
    stream.closed()
    return answer
  }
  for (const [name, value] of answer.headers) {
    if (name !== ALREADY_SENT && name !== 'set-cookie') res.setHeader(name, value)
  }
  const cookies = answer.headers.getSetCookie()
  if (cookies.length > 0) res.setHeader('set-cookie', cookies)
  res.writeHead(answer.status)
  res.flushHeaders()
  if (res.destroyed) {
    stream.closed()
    return answer
  }
  res.once('close', () => stream.closed())
  stream.start(res)
  return answer
}
