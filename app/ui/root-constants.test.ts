// Spec §9 root layout constants, pinned with their literal values.
import { describe, expect, it } from 'vitest'
import { LOADING_BAR, MODAL_Z_INDEX, TELEPORTS_ID, TOASTS } from './root-constants.ts'

describe('root layout constants (spec §9)', () => {
  it('loading bar: duration 2000 ms, throttle 200 ms, hide delay 500 ms, reset delay 400 ms, 3 px', () => {
    expect(LOADING_BAR).toEqual({
      durationMs: 2000,
      throttleMs: 200,
      hideDelayMs: 500,
      resetDelayMs: 400,
      heightPx: 3,
    })
  })

  it('toasts: 5000 ms, top-end, at most 350 px wide', () => {
    expect(TOASTS).toEqual({ durationMs: 5000, position: 'top-end', maxWidthPx: 350 })
  })

  it('modal z-index 1055, teleports into #teleports', () => {
    expect(MODAL_Z_INDEX).toBe(1055)
    expect(TELEPORTS_ID).toBe('teleports')
  })
})
