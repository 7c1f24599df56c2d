// A worker's message port that exists before the worker does: what the page
// posts, and the listeners it adds, wait until `until` resolves, then go to
// the worker `start()` creates, in order. Comlink wraps it like the worker
// itself (sync/client.ts `holdWorkerStart`).
import type { Endpoint } from 'comlink'

type Listener = EventListenerOrEventListenerObject

export function heldEndpoint(until: Promise<void>, start: () => Endpoint): Endpoint {
  let real: Endpoint | null = null
  const posts: { message: unknown; transfer: Transferable[] | undefined }[] = []
  const listeners: { type: string; listener: Listener }[] = []
  const open = () => {
    if (real) return
    const endpoint = start()
    // Listeners first: the worker may answer the first queued message at once.
    for (const { type, listener } of listeners) endpoint.addEventListener(type, listener)
    for (const { message, transfer } of posts) endpoint.postMessage(message, transfer)
    posts.length = 0
    listeners.length = 0
    real = endpoint
  }
  // A hold that fails still starts the worker: the page's calls must not hang.
  until.then(open, open)
  return {
    postMessage(message, transfer) {
      if (real) real.postMessage(message, transfer)
      else posts.push({ message, transfer })
    },
    addEventListener(type, listener) {
      if (real) real.addEventListener(type, listener)
      else listeners.push({ type, listener })
    },
    removeEventListener(type, listener) {
      if (real) {
        real.removeEventListener(type, listener)
        return
      }
      const i = listeners.findIndex((l) => l.type === type && l.listener === listener)
      if (i >= 0) listeners.splice(i, 1)
    },
  }
}
