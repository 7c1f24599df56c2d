// Timing helpers of the benchmarks: run a function warm-up + N times, and
// summarise the latencies as percentiles.

export interface Summary {
  p50: number
  p95: number
  p99: number
  max: number
}

/** Nearest-rank percentile of sorted values (p in 0..100). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN
}

export function summarise(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b)
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  }
}

/** Milliseconds of each of `runs` calls of `fn`, after `warmup` unmeasured ones. */
export async function measure<T>(
  fn: () => Promise<T>,
  runs: number,
  warmup: number,
): Promise<{ samples: number[]; last: T }> {
  let last = await fn()
  for (let i = 1; i < warmup; i++) last = await fn()
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    last = await fn()
    samples.push(performance.now() - start)
  }
  return { samples, last }
}

export const ms = (v: number) => v.toFixed(1)

/** A markdown table: readable in a terminal and pasteable into bench/RESULTS.md. */
export function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`
  return [line(head), rule, ...rows.map(line)].join('\n')
}
