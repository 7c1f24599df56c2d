// The one live event stream of the leader tab's worker (GET /api/events.php).
// It carries pokes, never data: each names what to pull. It tells whether it
// is up (the server's `ready` event) or down (an error), so the polling of
// spec §9 pauses while it is up and takes over when it drops; the browser's
// EventSource reconnects by itself and sends Last-Event-ID, which the server
// answers with a poke to pull everything once (a gap may have lost pokes).
import { endpoints, Poke } from '../../api/contract/index.ts'

export class EventStream {
  private source: EventSource | undefined

  constructor(
    private readonly onPoke: (poke: Poke) => void,
    /** Up: the server said `ready`. Down: the connection failed or closed. */
    private readonly onState: (up: boolean) => void = () => undefined,
    private readonly url = endpoints.events.path,
  ) {}

  get open(): boolean {
    return this.source !== undefined
  }

  start(): void {
    if (this.source || typeof EventSource === 'undefined') return
    const source = new EventSource(this.url, { withCredentials: true })
    source.addEventListener('poke', (e) => {
      let data: unknown
      try {
        data = JSON.parse((e as MessageEvent<string>).data)
      } catch {
        return
      }
      const poke = Poke.safeParse(data)
      if (poke.success) this.onPoke(poke.data)
    })
    source.addEventListener('ready', () => this.onState(true))
    // Reconnecting is the browser's; a 403 (session gone) closes the stream
    // for good, and the poll that resumes finds out about the session.
    source.addEventListener('error', () => {
      this.onState(false)
      if (source.readyState === EventSource.CLOSED) this.stop()
    })
    this.source = source
  }

  stop(): void {
    if (!this.source) return
    this.source.close()
    this.source = undefined
    this.onState(false)
  }
}
