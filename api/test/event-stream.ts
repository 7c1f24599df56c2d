// Reading a server-sent event stream in a test with bounded waits: each wait
// names what it awaited and shows what arrived, instead of hanging until the
// test's own timeout (30 s) with no reason given.

/** How long a wait on the stream may take before it fails (well below the test timeout). */
export const STREAM_WAIT_MS = 10_000

export interface EventStreamReader {
  /** Everything the stream sent so far. */
  readonly seen: string
  /** Reads until `done(seen)` holds; fails after `ms` or when the stream ends first. */
  until(what: string, done: (seen: string) => boolean, ms?: number): Promise<string>
  /** Reads until the text holds `needle` (see `until`). */
  untilText(needle: string, ms?: number): Promise<string>
  /** Reads until the server ends the stream; fails after `ms`. */
  untilEnd(ms?: number): Promise<void>
  cancel(): Promise<void>
}

const shown = (text: string) => {
  const tail = text.length > 600 ? `…${text.slice(-600)}` : text
  return tail === '' ? 'nothing' : JSON.stringify(tail)
}

export function eventStream(body: ReadableStream<Uint8Array> | null): EventStreamReader {
  if (!body) throw new Error('the answer has no body to read as an event stream')
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let seen = ''
  let ended = false
  // One read at a time: a read that outlives a failed wait is picked up by the next.
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null

  /** The next chunk, or 'timeout' at `deadline`. */
  async function next(deadline: number): Promise<'chunk' | 'end' | 'timeout'> {
    pending ??= reader.read()
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()))
    })
    try {
      const result = await Promise.race([pending, late])
      if (result === 'timeout') return 'timeout'
      pending = null
      if (result.done) {
        ended = true
        return 'end'
      }
      seen += decoder.decode(result.value, { stream: true })
      return 'chunk'
    } finally {
      clearTimeout(timer)
    }
  }

  const api: EventStreamReader = {
    get seen() {
      return seen
    },
    async until(what, done, ms = STREAM_WAIT_MS) {
      const deadline = Date.now() + ms
      while (!done(seen)) {
        if (ended) throw new Error(`the event stream ended before ${what}; it sent ${shown(seen)}`)
        const step = await next(deadline)
        if (step === 'timeout')
          throw new Error(`waited ${ms} ms for ${what} on the event stream; it sent ${shown(seen)}`)
      }
      return seen
    },
    untilText: (needle, ms) => api.until(JSON.stringify(needle), (s) => s.includes(needle), ms),
    async untilEnd(ms = STREAM_WAIT_MS) {
      const deadline = Date.now() + ms
      while (!ended) {
        if ((await next(deadline)) === 'timeout')
          throw new Error(
            `waited ${ms} ms for the server to end the event stream; it sent ${shown(seen)}`,
          )
      }
    },
    cancel: () => reader.cancel(),
  }
  return api
}
