// The benchmarks' side of HTTP: the API in a process of its own
// (bench/api-process.ts) and a keep-alive client, so that the clients cost
// as little CPU as a browser's open connection would (no new TCP connection
// and no WHATWG stream per request) on the cores the server also runs on.
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import { createInterface } from 'node:readline'

export interface ApiProcess {
  url: string
  pid: number
  /**
   * Two full garbage collections in the API process, resolved when done
   * (needs the node flag --expose-gc: a memory reading then counts what is
   * held, not garbage not yet collected).
   */
  collect(): Promise<void>
  close(): Promise<void>
}

/**
 * Starts bench/api-process.ts on `databaseUrl`; extra node flags (e.g.
 * --cpu-prof) go first, the process's own flags (`args`) last.
 */
export async function startApiProcess(
  databaseUrl: string,
  nodeFlags: string[] = [],
  args: string[] = [],
) {
  const child = spawn(
    process.execPath,
    [...nodeFlags, '--import', 'tsx', 'bench/api-process.ts', databaseUrl, ...args],
    // One JSON log line per request (api/http/request-log.ts) would be
    // printed here and cost the server CPU the benchmark measures: warnings
    // and errors only, unless LOG_LEVEL says otherwise.
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    },
  )
  const collected: (() => void)[] = []
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`api process exited with ${code}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const hit = /^listening (\S+)/.exec(line)
      if (hit) resolve(hit[1]!)
      else if (line === 'collected') collected.shift()?.()
      else console.log(`[api] ${line}`)
    })
  })
  return {
    url,
    pid: child.pid!,
    collect: () =>
      new Promise<void>((resolve) => {
        collected.push(resolve)
        child.stdin!.write('gc\n')
      }),
    close: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit')
        child.once('exit', () => resolve())
        child.stdin!.end()
      }),
  } satisfies ApiProcess
}

export interface Answer {
  status: number
  body: string
}

/** A keep-alive HTTP client holding up to `connections` sockets to one server. */
export function keepAliveClient(base: string, connections: number) {
  const { hostname, port } = new URL(base)
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
  return {
    request(
      method: string,
      path: string,
      headers: Record<string, string>,
      body?: string,
    ): Promise<Answer> {
      return new Promise((resolve, reject) => {
        const req = http.request(
          {
            agent,
            hostname,
            port,
            method,
            path,
            headers:
              body === undefined
                ? headers
                : { ...headers, 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            let text = ''
            res.setEncoding('utf8')
            res.on('data', (chunk: string) => {
              text += chunk
            })
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
            res.on('error', reject)
          },
        )
        req.on('error', reject)
        req.end(body)
      })
    },
    close: () => agent.destroy(),
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces): utime is the 14th, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND
  } catch {
    return 0 // gone meanwhile (a backend that ended)
  }
}

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100

/** CPU seconds used so far by each process named `name` (e.g. every PostgreSQL backend), by pid. */
export function cpuSecondsByPid(name: string): Map<number, number> {
  const cpu = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name)
        cpu.set(Number(entry), cpuSecondsOf(Number(entry)))
    } catch {
      // ended while listed
    }
  }
  return cpu
}

/** CPU seconds used so far by every process named `name` together. */
export const cpuSecondsOfAll = (name: string): number =>
  [...cpuSecondsByPid(name).values()].reduce((sum, seconds) => sum + seconds, 0)

/**
 * CPU seconds spent between two cpuSecondsByPid snapshots: a process gone by
 * the second counts nothing (a sum over both would go down), a new one all
 * it used.
 */
export function cpuSecondsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0)
  return total
}

/** The machine's load average over 1, 5 and 15 minutes, as /proc/loadavg has it. */
export const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

/** What a wrk run measured: requests/s, answers that were not 2xx/3xx, and wrk's own CPU seconds. */
export interface WrkRun {
  rate: number
  requests: number
  notOk: number
  cpuSeconds: number
}

/** Whether wrk (the C load generator, Debian's `wrk` package) is on this machine. */
export function hasWrk(): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => {
    try {
      return readdirSync(dir).includes('wrk')
    } catch {
      return false
    }
  })
}

/**
 * GETs `url` with `connections` keep-alive connections on one wrk thread for
 * `seconds`. wrk runs under a shell that prints its own /proc stat after wrk
 * ended: its cutime and cstime are the CPU wrk used.
 */
export function wrkRun(
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string>,
): Promise<WrkRun> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`]
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`)
  args.push(url)
  return new Promise((resolve, reject) => {
    const script = 'wrk "$@" && echo STAT && cat /proc/$$/stat'
    const child = spawn('sh', ['-c', script, 'sh', ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    child.on('error', reject)
    child.on('exit', (code) => {
      const rate = /Requests\/sec:\s+([\d.]+)/.exec(out)
      const requests = /(\d+) requests in/.exec(out)
      const stat = out.slice(out.indexOf('STAT') + 5)
      if (code !== 0 || !rate || !requests || !out.includes('STAT'))
        return reject(new Error(`wrk failed (${code}): ${out}`))
      // After the command name: cutime is the 16th field, cstime the 17th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      resolve({
        rate: Number(rate[1]),
        requests: Number(requests[1]),
        notOk: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
        cpuSeconds: (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND,
      })
    })
  })
}
