// Face match end to end, with the operator setting `face_match = auto`
// (docs/trust.md, docs/law.md Art. 9): a member whose profile photo shows
// the face of their selfie ticks the consent on /verify, turns their head
// the way asked and is verified by the machine, without a moderator; a
// member whose selfie shows another face than their photos waits for a
// moderator, who finds the request in the console's queue with its scores.
// The faces are cut from a picture that ships in the @vladmandic/human
// package (api/test/sample-faces.ts); nothing is downloaded.
import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { beforeAll, expect, it } from 'vitest'
import { sampleFace } from '../api/test/sample-faces.ts'
import { scaled } from '../api/test/time-scale.ts'
import { browserSuite, DEMO, logInMember, staffSignIn } from './harness.ts'

const OTHER = { email: 'demo2@example.com', password: DEMO.password }
const STAFF = 'moderator@example.com'
/** A man whose head is turned to his right in the grid (and to his left mirrored). */
const MAN = [0, 14] as const
const WOMAN = [2, 1] as const
/** Another picture of the same face: smaller, brighter, more compressed. */
const AUGMENTED = { scale: 0.7, brightness: 1.2, quality: 60 }

const suite = browserSuite(3, {
  // Photos are shown at once (the face must be among the approved photos),
  // and a clear match is approved by the machine.
  SITE_SETTINGS: JSON.stringify({ face_match: 'auto', photo_premoderation: false }),
})
let matching: Page
let different: Page
let staff: Page
beforeAll(() => {
  ;[matching, different, staff] = suite.pages as [Page, Page, Page]
})

/** Uploads `jpeg` as a profile photo of the page's member (the profile page's own call). */
async function addPhoto(page: Page, jpeg: Buffer) {
  const status = await page.evaluate(async (bytes) => {
    const form = new FormData()
    form.append('file', new File([new Uint8Array(bytes)], 'me.jpg', { type: 'image/jpeg' }))
    return (await fetch('/api/profileimage.php', { method: 'POST', body: form })).status
  }, Array.from(jpeg))
  expect(status).toBe(200)
}

/** Starts a request on /verify with the consent ticked; the head turn asked for. */
async function startWithConsent(page: Page): Promise<'left' | 'right'> {
  await page.goto('/verify')
  await page.getByRole('heading', { name: 'Verify your photos' }).waitFor()
  const consent = page.getByRole('checkbox', { name: /compares the face in my selfie/ })
  expect(await consent.isChecked()).toBe(false)
  await consent.check()
  await page.getByRole('button', { name: 'Start' }).click()
  await page.getByRole('heading', { name: 'Your pose' }).waitFor()
  const turn = await page.locator('[data-turn]').getAttribute('data-turn')
  expect(turn === 'left' || turn === 'right').toBe(true)
  return turn as 'left' | 'right'
}

async function sendSelfie(page: Page, jpeg: Buffer) {
  await page
    .getByLabel('Or choose a selfie')
    .setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: jpeg })
  await page.getByRole('img', { name: 'Your selfie' }).waitFor()
  await page.getByRole('button', { name: 'Send for review' }).click()
}

/** Reloads /verify until `text` shows (the face job runs after the upload). */
async function untilShown(page: Page, text: string, what: string) {
  const end = Date.now() + scaled(120_000)
  for (;;) {
    await page.goto('/verify')
    await page.getByRole('heading', { name: 'Verify your photos' }).waitFor()
    if (await page.getByText(text).count()) return
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 500))
  }
}

let differentId = 0
let matchingId = 0
/** Whether the verified member's selfie was the mirrored face (the turn asked). */
let matchingMirror = false

it('verifies a member whose selfie matches their photo without a moderator (auto)', async () => {
  matchingId = (await logInMember(matching, DEMO)).id
  const turn = await startWithConsent(matching)
  // The face as asked: the grid's man turns right; mirrored, he turns left.
  const mirror = turn === 'left'
  matchingMirror = mirror
  await addPhoto(matching, await sampleFace(...MAN, { mirror, ...AUGMENTED }))
  await sendSelfie(matching, await sampleFace(...MAN, { mirror }))
  await untilShown(matching, 'Your photos are verified.', 'the machine to approve the selfie')
  // The consent is kept with the face data, and can be withdrawn here.
  await matching.getByRole('button', { name: 'Withdraw consent and delete my face data' }).waitFor()
})

it('leaves a selfie of another face than the photos to a moderator', async () => {
  differentId = (await logInMember(different, OTHER)).id
  const turn = await startWithConsent(different)
  const mirror = turn === 'left'
  await addPhoto(different, await sampleFace(...WOMAN, AUGMENTED))
  await sendSelfie(different, await sampleFace(...MAN, { mirror }))
  await different.getByRole('status').filter({ hasText: 'waiting for a moderator' }).waitFor()
})

it('shows the moderator the scores of the request the machine left to them', async () => {
  await staffSignIn(staff, suite.site, STAFF, DEMO.password)
  const end = Date.now() + scaled(120_000)
  // The queue item shows the scores once the face job has run.
  for (;;) {
    await staff.goto('/operator/queue')
    const row = staff.getByRole('row').filter({ hasText: 'Photo verification' })
    await row.first().waitFor()
    await row.first().getByRole('link').first().click()
    await staff
      .getByRole('img', { name: `Verification selfie of member #${differentId}` })
      .waitFor()
    if (await staff.getByText(/Best similarity to the profile photos:/).count()) break
    if (Date.now() > end) throw new Error('timed out waiting for the face scores')
    await new Promise((r) => setTimeout(r, 500))
  }
  const line = await staff.getByText(/Best similarity to the profile photos:/).textContent()
  const similarity = Number(/photos: ([\d.]+)/.exec(line ?? '')?.[1])
  // Below the automatic approval's threshold: that is why a person decides.
  expect(similarity).toBeLessThan(0.85)
  await staff.getByText('Faces found in the selfie: 1').waitFor()
})

it("puts another account's new photo of the verified member's face in the moderator's queue", async () => {
  // Another photo of that face (a wide border: not the same photo), on the other account.
  const photo = await sharp(await sampleFace(...MAN, { mirror: matchingMirror }))
    .extend({ left: 160, background: '#204080' })
    .jpeg()
    .toBuffer()
  await addPhoto(different, photo)
  const summary = `New photo, the face kept for member #${matchingId}`
  const end = Date.now() + scaled(120_000)
  // Listed once the photo face job has run.
  for (;;) {
    await staff.goto('/operator/queue')
    await staff.getByRole('heading', { level: 1 }).first().waitFor()
    if (await staff.getByRole('row').filter({ hasText: summary }).count()) break
    if (Date.now() > end) throw new Error('timed out waiting for the same-face photo')
    await new Promise((r) => setTimeout(r, 500))
  }
  await staff
    .getByRole('row')
    .filter({ hasText: summary })
    .first()
    .getByRole('link')
    .first()
    .click()
  await staff.getByText(`Warning: the same face is kept for member #${matchingId}`).waitFor()
})
