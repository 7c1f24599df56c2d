// The named (prepared) statements this process sends through `pg`, as the
// driver is given them: their name, text and parameters. For the benchmarks
// that replay the API's own statements (bench/explain-send.ts,
// bench/batched-send.ts); call before the database is opened.
import pg from 'pg'

export interface CapturedStatement {
  name?: string
  text: string
  values: unknown[]
}

/** Starts recording every named statement sent from now on; returns the list it fills. */
export function captureNamedStatements(): CapturedStatement[] {
  const captured: CapturedStatement[] = []
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    if (config && typeof config === 'object' && 'name' in config && 'text' in config) {
      const c = config as { name?: string; text: string; values?: unknown[] }
      captured.push({ name: c.name, text: c.text, values: c.values ?? (rest[0] as unknown[]) })
    }
    return (query as (...args: unknown[]) => unknown).call(this, config, ...rest)
  } as typeof query
  return captured
}
