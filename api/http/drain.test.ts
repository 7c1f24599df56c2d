// The graceful stop (api/http/drain.ts) on a real Node HTTP server: requests
// in flight are answered (with Connection: close), new connections are
// refused, and only the grace period's end cuts what is left. The whole
// entry under SIGTERM: e2e/drain.e2e.ts.
import { Agent, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { describe, expect, it, onTestFinished } from 'vitest'
import { scaled } from '../test/time-scale.ts'
import { createLifecycle, shutdownGraceMs, stopGracefully, trackRequests } from './drain.ts'

interface Answer {
  status?: number
  connection?: string
  error?: string
}

function get(port: number, path: string, agent: Agent | false = false): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent })
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }))
    req.on('response', (res) => {
      res.resume()
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection ?? '' }),
      )
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }))
    })
    req.end()
  })
}

/** A server whose /slow answers wait for `release()`; counts the requests that reached it. */
async function slowServer() {
  let release: () => void = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  let arrived = 0
  const app = new Hono()
    .get('/slow', async (c) => {
      arrived++
      await gate
      return c.text('done')
    })
    .get('/quick', (c) => c.text('quick'))
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server
  await new Promise((r) => server.once('listening', r))
  onTestFinished(() => {
    release()
    server.closeAllConnections()
    server.close()
  })
  const port = (server.address() as AddressInfo).port
  return { server, port, release, arrived: () => arrived }
}

async function until(what: string, done: () => boolean, ms = scaled(5000)): Promise<void> {
  const end = Date.now() + ms
  while (!done()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

describe('HTTP drain', () => {
  it('answers the requests in flight with Connection: close and refuses new connections', async () => {
    const { server, port, release, arrived } = await slowServer()
    const http = trackRequests(server)
    const agent = new Agent({ keepAlive: true })
    onTestFinished(() => agent.destroy())
    // An idle keep-alive connection, as a browser keeps one.
    expect(await get(port, '/quick', agent)).toMatchObject({ status: 200 })
    const slow = Array.from({ length: 5 }, () => get(port, '/slow', agent))
    await until('5 requests in flight', () => arrived() === 5)
    expect(http.inFlight).toBe(5)
    const lines: string[] = []
    const drained = http.drain(10_000, (l) => lines.push(l))
    await until('the drain to start', () => lines.length > 0)
    expect(lines[0]).toBe('shutdown: draining, 5 request(s) in flight (grace period 10 s)')
    expect(await get(port, '/quick')).toEqual({ error: 'ECONNREFUSED' })
    release()
    const answers = await Promise.all(slow)
    expect(answers).toEqual(Array(5).fill({ status: 200, connection: 'close' }))
    expect(await drained).toEqual({ forced: 0 })
    expect(http.inFlight).toBe(0)
  })

  it('cuts what is still in flight when the grace period is over', async () => {
    const { server, port, arrived } = await slowServer()
    const http = trackRequests(server)
    const stuck = get(port, '/slow')
    await until('the request in flight', () => arrived() === 1)
    const lines: string[] = []
    expect(await http.drain(100, (l) => lines.push(l))).toEqual({ forced: 1 })
    expect(lines.at(-1)).toBe('shutdown: 1 request(s) still in flight after 0.1 s: cut')
    expect((await stuck).error).toBeDefined()
  })
})

describe('stopGracefully', () => {
  it('says not ready at once, ends the streams, drains while the jobs stop, then closes LISTEN and the database', async () => {
    const lifecycle = createLifecycle()
    const steps: string[] = []
    let finishDrain: () => void = () => {}
    const stopped = stopGracefully({
      lifecycle,
      http: {
        inFlight: 0,
        force: () => steps.push('force'),
        drain: (graceMs) =>
          new Promise((resolve) => {
            steps.push(`http drain ${graceMs}`)
            finishDrain = () => resolve({ forced: 0 })
          }),
      },
      events: {
        drain: () => void steps.push('streams end'),
        close: async () => void steps.push('LISTEN closed'),
      },
      jobs: { stop: async () => void steps.push('jobs stopped') },
      database: { close: async () => void steps.push('database closed') },
      graceMs: 25_000,
      log: () => undefined,
    })
    expect(lifecycle.draining).toBe(true)
    await until('the drain', () => steps.includes('jobs stopped'))
    expect(steps).toEqual(['streams end', 'http drain 25000', 'jobs stopped'])
    finishDrain()
    expect(await stopped).toBe(0)
    expect(steps.slice(3)).toEqual(['LISTEN closed', 'database closed'])
  })

  it('exits 1 when a step fails, after the others ran', async () => {
    const closed: string[] = []
    const code = await stopGracefully({
      lifecycle: createLifecycle(),
      http: { inFlight: 0, force: () => undefined, drain: async () => ({ forced: 0 }) },
      events: { drain: () => undefined, close: () => Promise.reject(new Error('boom')) },
      jobs: { stop: async () => undefined },
      database: { close: async () => void closed.push('database') },
      graceMs: 0,
      log: () => undefined,
    })
    expect(code).toBe(1)
    expect(closed).toEqual(['database'])
  })
})

describe('SHUTDOWN_GRACE_S', () => {
  it('defaults to 25 s, takes seconds, refuses anything else', () => {
    expect(shutdownGraceMs({})).toBe(25_000)
    expect(shutdownGraceMs({ SHUTDOWN_GRACE_S: '' })).toBe(25_000)
    expect(shutdownGraceMs({ SHUTDOWN_GRACE_S: '5' })).toBe(5_000)
    expect(shutdownGraceMs({ SHUTDOWN_GRACE_S: '0.5' })).toBe(500)
    expect(shutdownGraceMs({ SHUTDOWN_GRACE_S: '0' })).toBe(0)
    for (const bad of ['-1', 'ten', '25s', 'Infinity'])
      expect(() => shutdownGraceMs({ SHUTDOWN_GRACE_S: bad }), bad).toThrow('SHUTDOWN_GRACE_S')
  })
})
