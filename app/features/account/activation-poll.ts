// Step 6 of the sign-up (spec §4, §7, §9): GET /api/activate.php is polled
// every ACTIVATION_TICK_MS (900 ms); a tick is one answered poll. The timing
// lives here, out of the React page, so a fake-timer test can hold the page's
// poll to the spec's interval (activation-poll.test.ts).

import { ACTIVATION_TICK_MS } from './signup-steps.ts'

/**
 * Asks `check` (delivered yet?) ACTIVATION_TICK_MS after the start and after
 * each answer; `onAnswer` gets each answer and says whether to keep polling.
 * Returns a stop function: no answer is passed on and no poll starts after it.
 */
export function pollActivation(
  check: () => Promise<boolean>,
  onAnswer: (delivered: boolean) => boolean,
): () => void {
  let live = true
  let timer: ReturnType<typeof setTimeout> | undefined
  const next = () => {
    timer = setTimeout(async () => {
      const delivered = await check()
      if (!live) return
      if (onAnswer(delivered)) next()
    }, ACTIVATION_TICK_MS)
  }
  next()
  return () => {
    live = false
    clearTimeout(timer)
  }
}
