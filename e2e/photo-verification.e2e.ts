// Photo verification end to end: a member opens /verify, is shown a pose,
// sends a selfie through the file input (headless Chromium has no camera to
// film), and sees it waits for review; a moderator finds it in the console's
// queue beside the member's profile photos and approves it; another member
// then sees the verified mark on the member's profile.
import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { beforeAll, expect, it } from 'vitest'
import { browserSuite, DEMO, logInMember, staffSignIn } from './harness.ts'

const OTHER = { email: 'demo2@example.com', password: DEMO.password }
const STAFF = 'moderator@example.com'

const suite = browserSuite(3)
let member: Page
let other: Page
let staff: Page
beforeAll(() => {
  ;[member, other, staff] = suite.pages as [Page, Page, Page]
})

/** No horizontal scrolling at this width. */
async function fits(p: Page) {
  const wide = await p.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .map((e) => `${e.tagName}.${e.className}`)
      .slice(0, 5),
  )
  if (wide.length) console.log('wider than the window:', wide)
  return p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
}

let memberId = 0

it('a member sends a selfie doing the pose shown, and it waits for review', async () => {
  memberId = (await logInMember(member, DEMO)).id
  await member.goto('/verify')
  await member.getByRole('heading', { name: 'Verify your photos' }).waitFor()
  await member.getByRole('button', { name: 'Start' }).click()
  await member.getByRole('heading', { name: 'Your pose' }).waitFor()
  const pose = await member.locator('[data-pose]').textContent()
  expect(pose?.length).toBeGreaterThan(5)
  const selfie = await sharp({
    create: { width: 480, height: 640, channels: 3, background: '#8d6e63' },
  })
    .jpeg()
    .toBuffer()
  await member
    .getByLabel('Or choose a selfie')
    .setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: selfie })
  await member.getByRole('img', { name: 'Your selfie' }).waitFor()
  // A chosen file is no camera picture: the camera button still offers the camera.
  expect(await member.getByRole('button', { name: 'Take it again' }).count()).toBe(0)
  expect(await member.getByRole('button', { name: 'Use the camera' }).count()).toBe(1)
  for (const width of [360, 1280]) {
    await member.setViewportSize({ width, height: 900 })
    expect(await fits(member)).toBe(true)
  }
  await member.getByRole('button', { name: 'Send for review' }).click()
  await member.getByRole('status').filter({ hasText: 'waiting for a moderator' }).waitFor()
})

it('a moderator sees the selfie beside the profile photos and approves it', async () => {
  await staffSignIn(staff, suite.site, STAFF, DEMO.password)
  await staff.goto('/operator/queue')
  // The console's top bar offers a signed-in moderator no member log-in or sign-up.
  await staff.getByRole('banner').getByRole('link', { name: 'Amora' }).waitFor()
  expect(await staff.getByRole('banner').getByRole('link', { name: 'Log in' }).count()).toBe(0)
  expect(await staff.getByRole('banner').getByRole('link', { name: 'Sign up' }).count()).toBe(0)
  const row = staff.getByRole('row').filter({ hasText: 'Photo verification' })
  await row.waitFor()
  await row.getByRole('link').first().click()
  const shot = staff.getByRole('img', { name: `Verification selfie of member #${memberId}` })
  await shot.waitFor()
  expect(await shot.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/)
  await staff.getByText('Pose asked for:').waitFor()
  // The member's own photos are there to compare with.
  expect(await staff.locator('.mod-photos img').count()).toBeGreaterThan(0)
  for (const width of [360, 1280]) {
    await staff.setViewportSize({ width, height: 900 })
    expect(await fits(staff)).toBe(true)
  }
  await staff.getByLabel('Action').selectOption('approve')
  await staff.getByLabel('Facts and reasons (sent to the member)').fill('Same person, pose taken.')
  await staff.getByRole('button', { name: 'Decide' }).click()
  await staff.getByRole('status').filter({ hasText: 'Approve' }).waitFor()
  await staff.getByText('The selfie was deleted when the request was decided.').waitFor()
})

it('another member sees the verified mark on the profile and in the chat header', async () => {
  await logInMember(other, OTHER)
  await other.goto(`/members/${memberId}`)
  const heading = other.getByRole('heading', { level: 1 })
  await heading.getByRole('img', { name: 'Verified photos' }).waitFor()
  for (const width of [360, 1280]) {
    await other.setViewportSize({ width, height: 900 })
    expect(await fits(other)).toBe(true)
  }
  const chat = await other.evaluate(async (id) => {
    const res = await fetch(`/api/chat.php?profile=${id}`)
    return ((await res.json()) as { id: number }).id
  }, memberId)
  await other.goto(`/chats/${chat}`)
  await other
    .getByRole('heading', { level: 1 })
    .getByRole('img', { name: 'Verified photos' })
    .waitFor()
})
