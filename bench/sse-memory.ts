// What one open event stream weighs in a Node process, by how the stream is
// served: hono's streamSSE through @hono/node-server (Web Streams: a
// TransformStream, its writer, the server's reader loop), as the site's
// GET /api/events.php does, against a plain node:http answer written
// directly. No app, no database: the floor each way costs before the
// site's own per-stream state. bench/RESULTS.md, "Members online per
// process".
//
//   node --import tsx bench/sse-memory.ts [--streams=3000]
//
// Each server runs in a child process of its own (--expose-gc); the clients
// run here. Memory is read after two forced collections, before and after
// the streams are open; per stream = difference / streams.
import { spawn } from 'node:child_process'
import http from 'node:http'
import { fileURLToPath } from 'node:url'

const STREAMS = Number(
  process.argv.find((a) => a.startsWith('--streams='))?.split('=')[1] ?? '3000',
)

interface Stats {
  open: number
  rss: number
  heap: number
}

async function serve(mode: string) {
  const { serve: honoServe } = await import('@hono/node-server')
  const { Hono } = await import('hono')
  const { streamSSE } = await import('hono/streaming')
  let open = 0
  const gc = (globalThis as { gc?: () => void }).gc
  const stats = (): Stats => {
    gc?.()
    gc?.()
    const m = process.memoryUsage()
    return { open, rss: m.rss, heap: m.heapUsed }
  }
  const say = (port: number) => console.log(`listening ${port}`)
  if (mode === 'node') {
    const server = http.createServer((req, res) => {
      if (req.url !== '/sse') return void res.end(JSON.stringify(stats()))
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' })
      res.write('event: ready\nretry: 3000\ndata: \n\n')
      open++
      req.on('close', () => open--)
    })
    server.listen(0, '127.0.0.1', () => say((server.address() as { port: number }).port))
    return
  }
  const app = new Hono()
  app.get('/sse', (c) =>
    streamSSE(c, async (stream) => {
      open++
      let wake = () => {}
      stream.onAbort(() => wake())
      await stream.writeSSE({ data: '', event: 'ready', retry: 3000 })
      await new Promise<void>((r) => {
        wake = r
      })
      open--
    }),
  )
  app.get('/stats', (c) => c.json(stats()))
  honoServe({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => say(info.port))
}

const statsOf = (port: number, path: string) =>
  new Promise<Stats>((resolve, reject) => {
    http
      .get({ port, host: '127.0.0.1', path, agent: false }, (res) => {
        let body = ''
        res.on('data', (c) => {
          body += c
        })
        res.on('end', () => resolve(JSON.parse(body) as Stats))
      })
      .on('error', reject)
  })

async function measure(mode: string) {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), `--serve=${mode}`],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const port = await new Promise<number>((resolve) => {
    let out = ''
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString()
      const m = /listening (\d+)/.exec(out)
      if (m) resolve(Number(m[1]))
    })
  })
  const before = await statsOf(port, '/stats')
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY })
  const requests: http.ClientRequest[] = []
  await new Promise<void>((done) => {
    let ready = 0
    for (let i = 0; i < STREAMS; i++) {
      const req = http.get({ port, host: '127.0.0.1', path: '/sse', agent }, (res) => {
        res.once('data', () => {
          if (++ready === STREAMS) done()
        })
      })
      requests.push(req)
    }
  })
  const after = await statsOf(port, '/stats')
  for (const r of requests) r.destroy()
  agent.destroy()
  child.kill()
  const kb = (k: 'rss' | 'heap') => ((after[k] - before[k]) / STREAMS / 1024).toFixed(1)
  return { open: after.open, rss: kb('rss'), heap: kb('heap') }
}

const serveMode = process.argv.find((a) => a.startsWith('--serve='))?.split('=')[1]
if (serveMode) {
  await serve(serveMode)
} else {
  console.log(`${STREAMS} open event streams, KB per stream after a forced GC`)
  console.log('| served by | open | RSS KB/stream | heap KB/stream |')
  console.log('|---|---|---|---|')
  for (const [mode, label] of [
    ['hono', "hono's streamSSE on @hono/node-server"],
    ['node', 'node:http, written directly'],
  ] as const) {
    const r = await measure(mode)
    console.log(`| ${label} | ${r.open} | ${r.rss} | ${r.heap} |`)
  }
}
