// The same photo on two accounts, end to end: a member uploads a photo,
// another member uploads a resized copy of it, and a moderator finds the copy
// in the console's queue marked as the same photo, with the first member's
// picture beside it (docs/trust.md, "Stolen or reused photos").
import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { beforeAll, expect, it } from 'vitest'
import { browserSuite, DEMO, logInMember, staffSignIn } from './harness.ts'

const OTHER = { email: 'demo2@example.com', password: DEMO.password }
const STAFF = 'moderator@example.com'

const suite = browserSuite(3)
let first: Page
let second: Page
let staff: Page
beforeAll(() => {
  ;[first, second, staff] = suite.pages as [Page, Page, Page]
})

/** A photo-like picture: coloured discs on a background, fixed. */
const photo = () =>
  sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
      <rect width="600" height="800" fill="#5d7f99"/>
      <circle cx="150" cy="200" r="120" fill="#e8b04a"/>
      <circle cx="420" cy="520" r="180" fill="#7a2e4d"/>
      <circle cx="300" cy="700" r="90" fill="#d9e4dd"/>
      <circle cx="520" cy="120" r="70" fill="#1f3b2c"/>
    </svg>`),
  )
    .jpeg({ quality: 90 })
    .toBuffer()

/** Uploads a picture as the page's member; the new picture's id. */
async function upload(p: Page, bytes: Buffer): Promise<number> {
  return p.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
    const form = new FormData()
    form.append('file', new File([bytes], 'me.jpg', { type: 'image/jpeg' }))
    const res = await fetch('/api/profileimage.php', { method: 'POST', body: form })
    if (res.status !== 200) throw new Error(`upload: ${res.status}`)
    const { images } = (await res.json()) as { images: { id: number }[] }
    return Math.max(...images.map((i) => i.id))
  }, bytes.toString('base64'))
}

let firstId = 0
let copyId = 0

it('two members upload the same photo, the second a resized copy', async () => {
  firstId = (await logInMember(first, DEMO)).id
  await logInMember(second, OTHER)
  const bytes = await photo()
  await upload(first, bytes)
  copyId = await upload(second, await sharp(bytes).resize(400).jpeg({ quality: 60 }).toBuffer())
  expect(copyId).toBeGreaterThan(0)
})

it("a moderator sees the copy marked as the same photo, with the other member's picture", async () => {
  await staffSignIn(staff, suite.site, STAFF, DEMO.password)
  await staff.goto('/operator/queue')
  const row = staff.getByRole('row').filter({ hasText: `Photo for review #${copyId}` })
  await row.getByText(`New photo, the same as one of member #${firstId}'s`).waitFor()
  await row.getByRole('link').first().click()
  await staff.getByText(`The same photo is on another account: member #${firstId}.`).waitFor()
  await staff.getByRole('img', { name: new RegExp(`^Member #${firstId}'s photo \\d+$`) }).waitFor()
})
