// The demo seed's render cache (DEMO_AVATAR_CACHE): a pair rendered once is
// read back, the same bytes, and a different face never hits another's files.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { renderAvatarPair } from './avatars.ts'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'avatar-cache-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('the demo faces render cache', () => {
  it('keeps a rendered pair and gives back the same bytes as rendering', async () => {
    const rendered = await renderAvatarPair('anna', 'female', 31)
    const first = await renderAvatarPair('anna', 'female', 31, dir)
    expect(first.image.equals(rendered.image)).toBe(true)
    expect(first.thumb.equals(rendered.thumb)).toBe(true)
    const files = await readdir(dir)
    expect(files.filter((f) => f.endsWith('.jpg'))).toHaveLength(2)
    expect(files.some((f) => f.endsWith('.tmp'))).toBe(false)
  })

  it('reads a pair from the cache instead of rendering it again', async () => {
    await renderAvatarPair('anna', 'female', 31, dir)
    // Mark the kept files: a second call that rendered would not return the marks.
    for (const f of await readdir(dir)) await writeFile(join(dir, f), f)
    const again = await renderAvatarPair('anna', 'female', 31, dir)
    expect(again.image.toString()).toMatch(/^[0-9a-f]{64}\.jpg$/)
    expect(again.thumb.toString()).toMatch(/^[0-9a-f]{64}_t\.jpg$/)
  })

  it('keys a pair by what is drawn: another face or another age is rendered anew', async () => {
    await renderAvatarPair('anna', 'female', 31, dir)
    await renderAvatarPair('bert', 'male', 31, dir)
    await renderAvatarPair('anna', 'female', 60, dir)
    expect((await readdir(dir)).filter((f) => f.endsWith('.jpg'))).toHaveLength(6)
  })
})
