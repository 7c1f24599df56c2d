// Private photos (docs/payments.md, "What credits buy"), two members in two
// browsers: Demo Two (two photos) marks her second photo private on /profile;
// the demo member sees a locked tile named with its price (the site's default
// 50 credits), unlocks it once, sees the photo, and a reload (or the same
// unlock asked again) charges nothing more.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { scaled } from '../api/test/time-scale.ts'
import { browserSuite, DEMO, logInMember, pageApi } from './harness.ts'

const DEMO2 = { email: 'demo2@example.com', password: DEMO.password, name: 'Demo Two' }

const suite = browserSuite(2)
let owner: Page
let viewer: Page
let ownerId = 0

beforeAll(async () => {
  owner = suite.pages[0]!
  viewer = suite.pages[1]!
})

const balanceOf = async (page: Page) =>
  (await pageApi<{ credits: number }>(page, '/api/credits.php')).body.credits

/** The photo's picture loaded (the browser got the bytes, not a 404). */
const loaded = (page: Page, alt: string) =>
  page
    .getByRole('img', { name: alt })
    .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)

describe('private photos', () => {
  it('the owner marks a photo private on /profile; the main photo has no such button', async () => {
    ownerId = (await logInMember(owner, DEMO2)).id
    await owner.goto('/profile')
    const make = owner.getByRole('button', { name: 'Make private' })
    await make.waitFor({ timeout: scaled(15_000) })
    // Two photos, one the main one: one button.
    expect(await make.count()).toBe(1)
    await make.click()
    await owner.getByRole('button', { name: 'Make public' }).waitFor({ timeout: scaled(15_000) })
    expect(await owner.locator('.photo-list .badge', { hasText: /^Private$/ }).count()).toBe(1)
  })

  it('another member sees a locked tile with the price, unlocks it once and sees the photo', async () => {
    await logInMember(viewer, DEMO)
    const before = await balanceOf(viewer)
    await viewer.goto(`/members/${ownerId}`)
    const tile = viewer.getByRole('figure', { name: 'Private photo, unlock for 50 credits' })
    await tile.waitFor({ timeout: scaled(15_000) })
    expect(await tile.locator('figcaption').textContent()).toMatch(/^50 credits/)
    // Nothing of the picture reaches the viewer before the unlock.
    expect(await viewer.getByRole('img', { name: 'Private photo of Demo Two' }).count()).toBe(0)
    await tile.getByRole('button', { name: 'Unlock for 50 credits' }).click()
    const photo = viewer.getByRole('img', { name: 'Private photo of Demo Two' })
    await photo.waitFor({ timeout: scaled(15_000) })
    await expect.poll(() => loaded(viewer, 'Private photo of Demo Two')).toBe(true)
    expect(await tile.count()).toBe(0)
    expect(await balanceOf(viewer)).toBe(before - 50)

    // A reload shows it again without a charge; so does asking again.
    await viewer.reload()
    await photo.waitFor({ timeout: scaled(15_000) })
    await expect.poll(() => loaded(viewer, 'Private photo of Demo Two')).toBe(true)
    expect(await viewer.getByRole('figure', { name: /^Private photo, unlock/ }).count()).toBe(0)
    const { id } = (
      await pageApi<{ profile: { images: { id: number; private?: true }[] } }>(
        viewer,
        `/api/profile.php?id=${ownerId}`,
      )
    ).body.profile.images.find((i) => i.private)!
    const again = await pageApi<{ charged: number }>(viewer, '/api/photounlock.php', {
      method: 'POST',
      body: { id },
    })
    expect(again).toEqual({ status: 200, body: expect.objectContaining({ charged: 0 }) })
    expect(await balanceOf(viewer)).toBe(before - 50)
  })

  it('the owner sees who unlocked it', async () => {
    await owner.reload()
    const list = owner.getByRole('region', { name: 'Who unlocked your private photos' })
    await list.waitFor({ timeout: scaled(15_000) })
    expect(await list.getByRole('link', { name: 'Demo' }).count()).toBe(1)
  })
})
