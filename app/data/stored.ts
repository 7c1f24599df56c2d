// Reads of the local store for the page, answered by the sync worker
// (sync/store/watch.ts): live like a Dexie live query, without loading Dexie
// on the main thread. The worker is up before any page renders (the root
// waits for its stored session), so the first answer comes at once.
import { useEffect, useState, useSyncExternalStore } from 'react'
import { type ReadArgs, type ReadName, type ReadValue, watchStore } from '../../sync/client.ts'
import type { KvKey, KvValues } from '../../sync/store/kv.ts'
import { pageSeed } from './page-seed.ts'

/**
 * The read's value, `undefined` until the worker first answered. New
 * arguments keep the previous value until their own answer (as Dexie's
 * useLiveQuery did), so a list does not blink empty between pages.
 */
export function useStored<N extends ReadName>(
  name: N,
  args: ReadArgs<N>,
): ReadValue<N> | undefined {
  const key = JSON.stringify([name, args])
  const [value, setValue] = useState<ReadValue<N>>()
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for name and args
  useEffect(() => {
    let live = true
    const stop = watchStore(name, args, (next) => {
      // An answer of the previous arguments may still be on its way.
      if (live) setValue(() => next)
    })
    return () => {
      live = false
      stop()
    }
  }, [key])
  return value
}

interface Shared {
  value: unknown
  known: boolean
  listeners: Set<() => void>
  stop?: () => void
}

/** One watch per kv key, shared by every component that shows it. */
const kvWatches = new Map<KvKey, Shared>()

function kvEntry(key: KvKey): Shared {
  let entry = kvWatches.get(key)
  if (!entry) {
    entry = { value: undefined, known: false, listeners: new Set() }
    kvWatches.set(key, entry)
  }
  return entry
}

function subscribeKv(key: KvKey, listener: () => void): () => void {
  const entry = kvEntry(key)
  entry.listeners.add(listener)
  entry.stop ??= watchStore('kv', [key], (value) => {
    entry.value = value
    entry.known = true
    for (const l of entry.listeners) l()
  })
  return () => {
    entry.listeners.delete(listener)
    // Let a component that remounts at once (StrictMode, a route change)
    // keep the running watch instead of starting another.
    setTimeout(() => {
      if (entry.listeners.size > 0 || !entry.stop) return
      entry.stop()
      kvWatches.delete(key)
    }, 1000)
  }
}

/** The value a prerendered page was rendered with (app/data/page-seed.ts), if any. */
const seeded = <K extends KvKey>(key: K) =>
  (pageSeed()?.kv as Partial<KvValues> | undefined)?.[key] as KvValues[K] | undefined

/**
 * A typed kv value of the store (sync/store/kv.ts), `undefined` until known.
 * On a prerendered page the server's value stands in until the worker has
 * one, so hydration and the first paints after it show what the HTML showed.
 */
export function useKv<K extends KvKey>(key: K): KvValues[K] | undefined {
  return useSyncExternalStore(
    (listener) => subscribeKv(key, listener),
    () => (kvEntry(key).value as KvValues[K] | undefined) ?? seeded(key),
    () => seeded(key),
  )
}
