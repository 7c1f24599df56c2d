// Reads of the local store for the page, answered by the sync worker
// (sync/store/watch.ts): live like a Dexie live query, without loading Dexie
// on the main thread. Until the worker first answers, the page's own read of
// IndexedDB stands in (sync/store/peek.ts): the worker's start takes longer
// than the page's first render (docs/performance.md, "Repeat visit offline").
import { useEffect, useState, useSyncExternalStore } from 'react'
import {
  firstReads,
  type ReadArgs,
  type ReadName,
  type ReadValue,
  watchStore,
} from '../../sync/client.ts'
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
  const [value, setValue] = useState<ReadValue<N> | undefined>(
    () => firstReads.settled(name, args)?.value,
  )
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for name and args
  useEffect(() => {
    let live = true
    let answered = false
    const stop = watchStore(name, args, (next) => {
      answered = true
      // An answer of the previous arguments may still be on its way.
      if (live) setValue(() => next)
    })
    // The page's own read, until the worker's first answer.
    void firstReads.read(name, args).then((first) => {
      if (live && !answered && first) setValue(() => first.value)
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
    // A first read that came already (app/data/first-screen.ts) shows at once.
    entry = { value: firstReads.settled('kv', [key])?.value, known: false, listeners: new Set() }
    kvWatches.set(key, entry)
  }
  return entry
}

function subscribeKv(key: KvKey, listener: () => void): () => void {
  const entry = kvEntry(key)
  entry.listeners.add(listener)
  if (!entry.stop) {
    const known = entry
    known.stop = watchStore('kv', [key], (value) => {
      known.value = value
      known.known = true
      for (const l of known.listeners) l()
    })
    // The page's own read, until the worker's first answer.
    void firstReads.read('kv', [key]).then((first) => {
      if (!first || known.known || kvWatches.get(key) !== known) return
      known.value = first.value
      for (const l of known.listeners) l()
    })
  }
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
