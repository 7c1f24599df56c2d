// Time-outs guard against a hang, they are not a speed test: they grow with
// the machine's load when the run starts (a busy 2-core CI machine ran suites
// 4x slower), and TEST_TIME_SCALE sets the factor outright. One rule for the
// suites' defaults (vitest.config.ts) and for a test that sets its own.
import { availableParallelism, loadavg } from 'node:os'

export const TIME_SCALE =
  Number(process.env.TEST_TIME_SCALE) ||
  Math.max(1, Math.ceil((loadavg()[0] ?? 0) / availableParallelism()))

/** A test's own time-out, `ms` on an idle machine, scaled with the load. */
export const scaled = (ms: number) => ms * TIME_SCALE
