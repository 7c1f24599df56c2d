// A prerendered page starts its background work (the sync worker, the
// service worker's install) at the visitor's first input, or once it has
// loaded, had 3 s of calm and an idle moment (app/features/site/settled.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  INPUT_EVENTS,
  pageSettled,
  SEEN_MARGIN_PX,
  SETTLE_AFTER_LOAD_MS,
  SETTLE_IDLE_TIMEOUT_MS,
  type SettleDeps,
} from './settled.ts'

function page(loaded: boolean) {
  const target = new EventTarget()
  const idle: { fn: () => void; timeout: number }[] = []
  const seen: (() => void)[] = []
  const deps: SettleDeps = {
    target,
    loaded: () => loaded,
    whenIdle: (fn, timeout) => void idle.push({ fn, timeout }),
    watchSeen: (onSeen) => void seen.push(onSeen),
  }
  let settled = false
  const promise = pageSettled(deps).then(() => {
    settled = true
  })
  return { target, idle, seen, promise, isSettled: () => settled }
}

const flush = () => new Promise<void>((r) => queueMicrotask(r))

describe('when a prerendered page has settled', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('pins the waits: 3000 ms after load, then at most 2000 ms for an idle moment', () => {
    expect(SETTLE_AFTER_LOAD_MS).toBe(3000)
    expect(SETTLE_IDLE_TIMEOUT_MS).toBe(2000)
    expect(INPUT_EVENTS).toEqual(['pointerdown', 'keydown', 'touchstart'])
    expect(SEEN_MARGIN_PX).toBe(0)
  })

  it('waits for load, then 3 s, then an idle moment', async () => {
    const p = page(false)
    vi.advanceTimersByTime(10_000)
    await flush()
    expect(p.isSettled()).toBe(false)
    p.target.dispatchEvent(new Event('load'))
    vi.advanceTimersByTime(SETTLE_AFTER_LOAD_MS - 1)
    expect(p.idle).toHaveLength(0)
    vi.advanceTimersByTime(1)
    expect(p.idle).toEqual([{ fn: expect.any(Function), timeout: 2000 }])
    await flush()
    expect(p.isSettled()).toBe(false)
    p.idle[0]?.fn()
    await p.promise
    expect(p.isSettled()).toBe(true)
  })

  it('counts from now when the page has loaded already', async () => {
    const p = page(true)
    vi.advanceTimersByTime(SETTLE_AFTER_LOAD_MS)
    p.idle[0]?.fn()
    await p.promise
    expect(p.isSettled()).toBe(true)
  })

  for (const type of INPUT_EVENTS) {
    it(`settles at once on the visitor's first ${type}, before load`, async () => {
      const p = page(false)
      p.target.dispatchEvent(new Event(type))
      await p.promise
      expect(p.isSettled()).toBe(true)
    })
  }

  it('settles at once when a place that needs the worker comes into view', async () => {
    const p = page(false)
    expect(p.seen).toHaveLength(1)
    p.seen[0]?.()
    await p.promise
    expect(p.isSettled()).toBe(true)
  })

  it('does not settle on focus alone (a page may focus a field itself)', async () => {
    const p = page(false)
    p.target.dispatchEvent(new Event('focusin'))
    p.target.dispatchEvent(new Event('focus'))
    await flush()
    expect(p.isSettled()).toBe(false)
  })
})
