// The page's handle on the sync worker. Import this (and store.ts) from app/;
// never the worker module itself.
import * as Comlink from 'comlink'
import type {
  ConsoleCallOptions,
  ConsoleEndpointName,
  ConsoleHandlers,
} from './console/handlers.ts'
import type { QueryOf } from './core/http.ts'
import type { SyncEvent } from './engine.ts'
import { heldEndpoint } from './held-endpoint.ts'
import type { FirstReads } from './store/peek.ts'
import type { LinkEndpointName, LinkHandlers } from './links/handlers.ts'
import type { KvKey, KvValues } from './store/kv.ts'
import type { ReadArgs, ReadName, ReadValue } from './store/watch.ts'
import type { SyncApi } from './worker.ts'

export type { ConsoleCallOptions, ConsoleEndpointName } from './console/handlers.ts'
export type { Result, SyncError } from './core/errors.ts'
export type { QueryOf, ResponseOf } from './core/http.ts'
export type { LinkEndpointName } from './links/handlers.ts'
export type { SearchFilters } from './search/search-key.ts'
export { searchKey } from './search/search-key.ts'
export type { ReadArgs, ReadName, ReadValue } from './store/watch.ts'
export type { SyncApi, SyncEvent }

let remote: Comlink.Remote<SyncApi> | undefined
let hold: Promise<void> | undefined

/**
 * The worker is not started before `until` resolves: until then what the
 * page asks of it waits, in order (sync/held-endpoint.ts). For a page whose
 * data came with its HTML (a prerendered guest page, app/lander.tsx): the
 * worker's start (a large script compiled, IndexedDB opened, a first sync)
 * would otherwise compete with the page's hydration for a phone's cores.
 * Call before the page's first `syncWorker()`.
 */
export function holdWorkerStart(until: Promise<void>): void {
  hold = until
}

const startWorker = (): Worker => {
  // A mark for bench/offline-repeat.ts: when the page started the worker.
  performance.mark('sync:worker-start')
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'sync' })
}

export function syncWorker(): Comlink.Remote<SyncApi> {
  remote ??= Comlink.wrap<SyncApi>(hold ? heldEndpoint(hold, startWorker) : startWorker())
  return remote
}

type FirstReadsApi = Pick<FirstReads, 'open' | 'read' | 'settled' | 'end'>

/** No first reads: the light entry (a guest's page) has none, the worker answers. */
const NO_FIRST_READS: FirstReadsApi = {
  open: () => undefined,
  read: () => Promise.resolve(null),
  settled: () => undefined,
  end: () => undefined,
}
let first: FirstReadsApi = NO_FIRST_READS

/**
 * The page's own reads of the store until the worker first answers
 * (sync/store/peek.ts): a repeat visit paints from them, offline too. Only
 * the app's shell starts them (`installFirstReads`, app/data/first-screen.ts),
 * so a guest's light entry does not carry their code.
 */
export const firstReads: FirstReadsApi = {
  open: () => first.open(),
  read: (name, args) => first.read(name, args),
  settled: (name, args) => first.settled(name, args),
  end: () => first.end(),
}

/** Installs the page's first reads (before the first `firstReads` call). */
export function installFirstReads(reads: FirstReadsApi): void {
  first = reads
}

/** Subscribes to worker events; the callback crosses the boundary as a proxy. */
export function onSyncEvent(listener: (e: SyncEvent) => void): void {
  void syncWorker().subscribe(Comlink.proxy(listener))
}

/** The worker's store-read handlers, typed per read (Comlink's Remote drops the generics). */
interface StoreReadsRemote {
  watchStore<N extends ReadName>(
    name: N,
    args: ReadArgs<N>,
    listener: (value: ReadValue<N>) => void,
  ): Promise<number>
  unwatchStore(id: number): Promise<void>
  readStore<N extends ReadName>(name: N, ...args: ReadArgs<N>): Promise<ReadValue<N>>
}
const reads = () => syncWorker() as unknown as StoreReadsRemote

/**
 * Watches a named read of the store (sync/store/watch.ts), run by the worker:
 * `listener` gets its value now and after every change. Answers the stop.
 */
export function watchStore<N extends ReadName>(
  name: N,
  args: ReadArgs<N>,
  listener: (value: ReadValue<N>) => void,
): () => void {
  const id = reads().watchStore(name, args, Comlink.proxy(listener))
  return () => void id.then((watch) => reads().unwatchStore(watch))
}

/** A typed kv value of the store, read once by the worker. */
export const readKv = <K extends KvKey>(key: K) =>
  reads().readStore('kv', key) as Promise<KvValues[K] | undefined>

/**
 * The worker's calls by endpoint name, typed per endpoint (Comlink's Remote
 * drops the generics; each of these answers a promise already, so its own
 * type is the remote one).
 */
const byName = () => syncWorker() as unknown as ConsoleHandlers & LinkHandlers

/** A console call by its entry in the endpoint table, parsed by the worker; nothing stored. */
export const consoleRequest = <K extends ConsoleEndpointName>(
  name: K,
  options?: ConsoleCallOptions<K>,
) => byName().consoleRequest(name, options)

/** The address of a GET endpoint for a link the page opens itself (a download). */
export const endpointUrl = <K extends LinkEndpointName>(name: K, query?: QueryOf<K>) =>
  byName().endpointUrl(name, query)
