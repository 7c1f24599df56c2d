// The event-stream helper's waits are bounded and say what they awaited and
// what arrived (api/chats/messages.test.ts reads its live pokes with it).
import { describe, expect, it } from 'vitest'
import { eventStream, STREAM_WAIT_MS } from './event-stream.ts'

/** A stream that sends `chunks` and then stays open (or ends, with `end`). */
function stream(chunks: string[], end = false) {
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c))
      if (end) controller.close()
    },
  })
}

describe('eventStream waits', () => {
  it('fail within well under the 30 s test timeout by default', () => {
    expect(STREAM_WAIT_MS).toBe(10_000)
  })

  it('answer once the text arrives, across chunks', async () => {
    const s = eventStream(stream(['event: re', 'ady\n\n', 'data: {"type":"messages"}\n\n']))
    expect(await s.untilText('event: ready', 1_000)).toContain('event: ready')
    expect(await s.untilText('"type":"messages"', 1_000)).toContain('"type":"messages"')
    await s.cancel()
  })

  it('a wait for text that never comes fails fast, naming what was awaited and what arrived', async () => {
    const s = eventStream(stream(['event: ready\n\n', ': keep-alive\n\n']))
    const started = Date.now()
    await expect(s.untilText('"type":"messages"', 200)).rejects.toThrow(
      'waited 200 ms for "\\"type\\":\\"messages\\"" on the event stream; it sent "event: ready\\n\\n: keep-alive\\n\\n"',
    )
    expect(Date.now() - started).toBeLessThan(2_000)
    await s.cancel()
  })

  it('a wait fails at once when the stream ends without the text', async () => {
    const s = eventStream(stream(['event: ready\n\n'], true))
    await expect(s.untilText('"type":"messages"')).rejects.toThrow(
      'the event stream ended before "\\"type\\":\\"messages\\""; it sent "event: ready\\n\\n"',
    )
  })

  it('waits for the end of the stream, boundedly', async () => {
    await eventStream(stream(['x'], true)).untilEnd(1_000)
    const open = eventStream(stream([]))
    await expect(open.untilEnd(100)).rejects.toThrow(
      'waited 100 ms for the server to end the event stream; it sent nothing',
    )
    await open.cancel()
  })
})
