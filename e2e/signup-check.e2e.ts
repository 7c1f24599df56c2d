// Sign-up step 0 when the email check does not answer (docs/accounts.md,
// "The email check never blocks a sign-up"): a press of "Sign up" always
// sends the sign-up or shows a message. The check's route fails here, so the
// page never learns whether the address is new and the server's own sign-up
// validation decides. Before the fix, a failed check counted as status
// invalid: the form called a valid address invalid and sent nothing.
import type { Page, Route } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserSuite, formReady, newContext } from './harness.ts'

const suite = browserSuite(0)

/** The check's failures a member meets: server trouble, the rate limit, no network. */
const FAILURES: [string, (route: Route) => Promise<void>][] = [
  [
    'the server fails',
    (route) => route.fulfill({ status: 503, json: { error: 'database_unavailable' } }),
  ],
  [
    'the rate limit answers',
    (route) =>
      route.fulfill({
        status: 429,
        json: { error: 'rate_limited' },
        headers: { 'Retry-After': '600' },
      }),
  ],
  ['the network fails', (route) => route.abort('connectionfailed')],
]

/** What the page did after the press: sent the sign-up, or called the address invalid. */
async function afterPress(page: Page): Promise<string> {
  const sent = page
    .waitForRequest((r) => r.url().includes('/api/user.php?new=1'))
    .then(async (r) => `sign-up sent, answered ${(await r.response())?.status()}`)
  const invalid = page
    .getByText('Value is not a valid email address')
    .waitFor()
    .then(() => 'address called invalid, nothing sent')
  await page.getByRole('button', { name: 'Sign up' }).click()
  return Promise.race([sent, invalid])
}

describe('sign-up when the email check fails', () => {
  it.each(FAILURES)(
    'a press of Sign up sends the sign-up when %s on the email check',
    async (name, fail) => {
      const context = await newContext(suite.browser, suite.site)
      const page = await context.newPage()
      let checks = 0
      const checked = new Promise<void>((resolve) =>
        page.route('**/api/validate_email.php*', async (route) => {
          checks++
          await fail(route)
          resolve()
        }),
      )
      try {
        await page.goto('/signup')
        await formReady(page)
        await page
          .getByLabel('Email address')
          .fill(`check.${name.replaceAll(' ', '-')}.${Date.now()}@example.com`)
        await page.getByLabel('Name').fill('Mira')
        await page.getByLabel('Password').fill('a-checked-password-1')
        // The check of the typed address has failed before the press.
        await checked
        expect(await afterPress(page)).toBe('sign-up sent, answered 200')
        expect(checks).toBeGreaterThan(0)
      } finally {
        await context.close()
      }
    },
  )
})
