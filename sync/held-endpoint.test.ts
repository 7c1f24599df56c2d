// sync/client.ts `holdWorkerStart`: what the page asks of the worker before
// it starts waits, in order, and reaches the worker once the hold ends.
import * as Comlink from 'comlink'
import { describe, expect, it, vi } from 'vitest'
import { heldEndpoint } from './held-endpoint.ts'

function release() {
  let open!: () => void
  let fail!: (e: unknown) => void
  const until = new Promise<void>((resolve, reject) => {
    open = resolve
    fail = reject
  })
  return { until, open, fail }
}

function fakeEndpoint() {
  const log: string[] = []
  return {
    log,
    endpoint: {
      postMessage: (m: unknown) => void log.push(`post ${String(m)}`),
      addEventListener: (t: string) => void log.push(`listen ${t}`),
      removeEventListener: (t: string) => void log.push(`unlisten ${t}`),
    },
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0))

describe('a worker endpoint held until the page has settled', () => {
  it('starts nothing before the hold ends, then adds the listeners and posts in order', async () => {
    const hold = release()
    const fake = fakeEndpoint()
    const start = vi.fn(() => fake.endpoint)
    const ep = heldEndpoint(hold.until, start)
    ep.addEventListener('message', () => {})
    ep.postMessage('one')
    ep.postMessage('two')
    await tick()
    expect(start).not.toHaveBeenCalled()
    hold.open()
    await tick()
    expect(start).toHaveBeenCalledTimes(1)
    expect(fake.log).toEqual(['listen message', 'post one', 'post two'])
    ep.postMessage('three')
    expect(fake.log.at(-1)).toBe('post three')
  })

  it('drops a listener removed before the start', async () => {
    const hold = release()
    const fake = fakeEndpoint()
    const ep = heldEndpoint(hold.until, () => fake.endpoint)
    const listener = () => {}
    ep.addEventListener('message', listener)
    ep.removeEventListener('message', listener)
    ep.postMessage('one')
    hold.open()
    await tick()
    expect(fake.log).toEqual(['post one'])
  })

  it('starts the worker even when the hold fails (no call may hang)', async () => {
    const hold = release()
    const fake = fakeEndpoint()
    const ep = heldEndpoint(hold.until, () => fake.endpoint)
    ep.postMessage('one')
    hold.fail(new Error('no'))
    await tick()
    expect(fake.log).toEqual(['post one'])
  })

  it('carries a Comlink call made before the start to its answer after it', async () => {
    const hold = release()
    const { port1, port2 } = new MessageChannel()
    Comlink.expose({ add: (a: number, b: number) => a + b }, port2)
    const remote = Comlink.wrap<{ add(a: number, b: number): number }>(
      heldEndpoint(hold.until, () => {
        port1.start()
        return port1
      }),
    )
    let answer: number | undefined
    void remote.add(2, 3).then((v) => {
      answer = v
    })
    await tick()
    expect(answer).toBeUndefined()
    hold.open()
    await vi.waitFor(() => expect(answer).toBe(5))
    port1.close()
    port2.close()
  })
})
