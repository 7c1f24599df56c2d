import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { pollActivation } from './activation-poll.ts'
// The page's source, to check it leaves the timing to pollActivation.
import signupPageSource from './SignupPage.tsx?raw'
import { ACTIVATION_TICK_MS } from './signup-steps.ts'

describe('activation poll (spec §7, §9: GET /api/activate.php every 900 ms)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('the activation poll interval is 900 ms', () => {
    expect(ACTIVATION_TICK_MS).toBe(900)
  })

  it('polls 900 ms after the start and 900 ms after each answer, not sooner or later', async () => {
    const check = vi.fn(async () => false)
    const answers: boolean[] = []
    const stop = pollActivation(check, (d) => {
      answers.push(d)
      return true
    })
    await vi.advanceTimersByTimeAsync(899)
    expect(check).toHaveBeenCalledTimes(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(check).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(899)
    expect(check).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(check).toHaveBeenCalledTimes(2)
    // 20 ticks (spec §9) take 20 x 900 ms = 18 s.
    await vi.advanceTimersByTimeAsync(18 * 900)
    expect(check).toHaveBeenCalledTimes(20)
    expect(answers).toHaveLength(20)
    stop()
  })

  it('stops when the answer handler says so, and after stop() passes nothing on', async () => {
    const check = vi.fn(async () => true)
    const onAnswer = vi.fn(() => false)
    pollActivation(check, onAnswer)
    await vi.advanceTimersByTimeAsync(10 * 900)
    expect(check).toHaveBeenCalledTimes(1)
    expect(onAnswer).toHaveBeenCalledWith(true)

    const later = vi.fn(async () => false)
    const gone = vi.fn(() => true)
    const stop = pollActivation(later, gone)
    stop()
    await vi.advanceTimersByTimeAsync(10 * 900)
    expect(later).not.toHaveBeenCalled()
    expect(gone).not.toHaveBeenCalled()
  })

  it('the sign-up page polls through pollActivation, with no timer of its own', () => {
    // No DOM in the unit suite to render the page: its source must leave the
    // step-6 timing to pollActivation (tested above).
    expect(signupPageSource).toMatch(/return pollActivation\(/)
    expect(signupPageSource).not.toMatch(/\bset(Timeout|Interval)\(/)
  })
})
