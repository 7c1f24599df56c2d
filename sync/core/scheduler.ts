// The polling of spec §9, run by the leader tab's worker only: user, chats
// and likes every 60 s, or every 300 s when a push subscription brings news;
// chats and likes start 1 s after login. Polling is the fallback of the live
// event stream: while the stream is up it pokes every change (and the server
// ends it when the session ends), so the polls pause and an idle tab costs
// only the stream's keep-alives; when it drops, polling resumes at once.
import { CHATS_START_DELAY_MS, POLL_MS, POLL_WITH_PUSH_MS } from './timing.ts'

export interface PollTask {
  name: string
  run: () => Promise<unknown>
  /** Delay of the first run after start. */
  firstDelayMs: 'interval' | number
}

export class Scheduler {
  /** One pending timer per task. */
  private timers = new Map<string, ReturnType<typeof setTimeout>>()
  /**
   * Bumped by every stop: a tick whose request outlives a restart (say, a
   * push subscription arriving mid-request) must not reschedule itself next
   * to the new loop, or the old loop would run on untracked and survive logout.
   */
  private generation = 0
  private leader = false
  private pushSubscribed = false
  private wanted = false
  private streaming = false

  constructor(
    private readonly tasks: PollTask[],
    private readonly onError: (error: unknown) => void,
  ) {}

  /** The polling interval in force (spec §9). */
  get intervalMs(): number {
    return this.pushSubscribed ? POLL_WITH_PUSH_MS : POLL_MS
  }

  get running(): boolean {
    return this.timers.size > 0
  }

  setLeader(leader: boolean) {
    this.leader = leader
    this.apply()
  }

  setPushSubscribed(subscribed: boolean) {
    if (subscribed === this.pushSubscribed) return
    this.pushSubscribed = subscribed
    if (this.running) this.restart()
  }

  /**
   * The live stream is up (true) or down (false). Going down runs every task
   * at once (pokes may have been lost with the stream), then on the interval.
   */
  setStreaming(up: boolean) {
    if (up === this.streaming) return
    this.streaming = up
    if (up) this.clear()
    else this.restart(0)
  }

  /** A member is signed in: poll (if this worker leads). */
  start() {
    this.wanted = true
    this.restart()
  }

  /** The session ended: no more polls. */
  stop() {
    this.wanted = false
    this.clear()
  }

  private apply() {
    if (this.wanted && this.leader && !this.running) this.restart()
    if (!this.leader) this.clear()
  }

  /** `firstMs` overrides every task's first delay (0: at once). */
  private restart(firstMs?: number) {
    this.clear()
    if (!this.wanted || !this.leader || this.streaming) return
    const every = this.intervalMs
    const generation = this.generation
    for (const task of this.tasks) {
      const tick = async () => {
        await task.run().catch(this.onError)
        if (generation === this.generation && this.timers.has(task.name)) {
          this.timers.set(task.name, setTimeout(tick, every))
        }
      }
      const first = firstMs ?? (task.firstDelayMs === 'interval' ? every : task.firstDelayMs)
      this.timers.set(task.name, setTimeout(tick, first))
    }
  }

  private clear() {
    this.generation++
    for (const t of this.timers.values()) clearTimeout(t)
    this.timers.clear()
  }
}

export { CHATS_START_DELAY_MS }
