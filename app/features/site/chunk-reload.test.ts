// Spec §8: a failed chunk reloads the page at most once per path per 10 s.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CHUNK_RELOAD_WINDOW_MS, isChunkLoadError, reloadForChunk } from './chunk-reload.ts'

function memoryStorage() {
  const items = new Map<string, string>()
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
  }
}

describe('reload after a chunk failed to load', () => {
  beforeEach(() => vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }))
  afterEach(() => vi.useRealTimers())

  const deps = () => ({ storage: memoryStorage(), now: () => Date.now(), reload: vi.fn() })

  it('pins the window: 10 000 ms', () => {
    expect(CHUNK_RELOAD_WINDOW_MS).toBe(10_000)
  })

  it('reloads once per path within 10 s, then again after', () => {
    const d = deps()
    expect(reloadForChunk('/members', d)).toBe(true)
    expect(d.reload).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(9_999)
    expect(reloadForChunk('/members', d)).toBe(false)
    expect(d.reload).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(1)
    expect(reloadForChunk('/members', d)).toBe(true)
    expect(d.reload).toHaveBeenCalledTimes(2)
  })

  it('counts each path on its own', () => {
    const d = deps()
    expect(reloadForChunk('/members', d)).toBe(true)
    expect(reloadForChunk('/chats', d)).toBe(true)
    expect(reloadForChunk('/members', d)).toBe(false)
    expect(d.reload).toHaveBeenCalledTimes(2)
  })

  it('treats a damaged stored entry as none', () => {
    const d = deps()
    d.storage.setItem('amora-chunk-reloads', '{not json')
    expect(reloadForChunk('/x', d)).toBe(true)
  })

  it('knows the browsers’ dynamic import failures from other errors', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js')),
    ).toBe(true)
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true)
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true)
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false)
  })
})
