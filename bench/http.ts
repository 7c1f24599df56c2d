// The benchmarks' side of HTTP: the API in a process of its own
// (bench/api-process.ts) and a keep-alive client, so that the clients cost
// as little CPU as a browser's open connection would (no new TCP connection
// and no WHATWG stream per request) on the cores the server also runs on.
import { spawn } from 'node:child_process'
import http from 'node:http'
import os from 'node:os'
import { createInterface } from 'node:readline'

export interface ApiProcess {
  url: string
  close(): Promise<void>
}

/** Starts bench/api-process.ts on `databaseUrl`; extra node flags (e.g. --cpu-prof) go first. */
export async function startApiProcess(databaseUrl: string, nodeFlags: string[] = []) {
  const child = spawn(
    process.execPath,
    [...nodeFlags, '--import', 'tsx', 'bench/api-process.ts', databaseUrl],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  )
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`api process exited with ${code}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const hit = /^listening (\S+)/.exec(line)
      if (hit) resolve(hit[1]!)
      else console.log(`[api] ${line}`)
    })
  })
  return {
    url,
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

/** The machine's load average over 1, 5 and 15 minutes, as /proc/loadavg has it. */
export const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
