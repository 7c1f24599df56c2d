// The screenshot baselines' rule (e2e/baseline.ts): under CI a missing
// baseline fails with a message saying how to make one, since a baseline
// written there would pass whatever the screen shows; locally it is written,
// loudly.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { baselineAction, checkBaseline, isCi } from '../e2e/baseline.ts'

const PATH = 'e2e/baselines/classic-1-home-360.png'

describe('baselineAction', () => {
  it.each(['true', '1', 'TRUE', 'yes'])('a missing baseline fails under CI=%s', (ci) => {
    const action = baselineAction(PATH, false, { CI: ci })
    expect(action.kind).toBe('fail')
    const message = action.kind === 'fail' ? action.message : ''
    expect(message).toContain(PATH)
    // It says how to make the baseline.
    expect(message).toContain('UPDATE_BASELINES=1')
    expect(message).toContain('without CI')
  })

  it('under CI an existing baseline is compared, and UPDATE_BASELINES=1 is refused', () => {
    expect(baselineAction(PATH, true, { CI: 'true' })).toEqual({ kind: 'compare' })
    expect(baselineAction(PATH, true, { CI: 'true', UPDATE_BASELINES: '1' }).kind).toBe('fail')
    expect(baselineAction(PATH, false, { CI: 'true', UPDATE_BASELINES: '1' }).kind).toBe('fail')
  })

  it.each([[undefined], [''], ['0'], ['false']])(
    'locally (CI=%s) a missing baseline is written, an existing one compared',
    (ci) => {
      expect(isCi({ CI: ci })).toBe(false)
      expect(baselineAction(PATH, false, { CI: ci })).toEqual({ kind: 'write', reason: 'missing' })
      expect(baselineAction(PATH, true, { CI: ci })).toEqual({ kind: 'compare' })
      expect(baselineAction(PATH, true, { CI: ci, UPDATE_BASELINES: '1' })).toEqual({
        kind: 'write',
        reason: 'update',
      })
    },
  )
})

describe('checkBaseline', () => {
  let dir: string
  const screenshot = () =>
    sharp({ create: { width: 40, height: 20, channels: 3, background: '#c03' } })
      .png()
      .toBuffer()

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'baseline-test-'))
  })
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('a missing baseline under CI fails and writes nothing', async () => {
    const path = join(dir, 'home-360.png')
    await expect(checkBaseline(path, await screenshot(), { CI: 'true' })).rejects.toThrow(
      /Screenshot baseline missing: .*home-360\.png.*UPDATE_BASELINES=1/,
    )
    expect(existsSync(path)).toBe(false)
  })

  it('locally a missing baseline is written with a loud warning, then compared', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const path = join(dir, 'home-360.png')
    const png = await screenshot()
    expect(await checkBaseline(path, png, {})).toEqual({ kind: 'written', path })
    expect(existsSync(path)).toBe(true)
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining(`MISSING AND HAS BEEN WRITTEN: ${path}`),
    )
    warn.mockRestore()
    // Now it exists: CI compares with it.
    expect(await checkBaseline(path, png, { CI: 'true' })).toEqual({
      kind: 'compared',
      share: 0,
      path,
    })
  })
})
