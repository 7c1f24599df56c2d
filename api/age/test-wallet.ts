// The built-in test wallet: on a demo start (or AGE_TEST_WALLET=on, never
// in production: api/age/config.ts ageTestWalletOn) it lets a member go
// through the age check without the EU app, the way the test payment
// provider's checkout lets them pay without money. The test issuer
// (api/age/testing/wallet.ts) is made in memory, one per process; its root
// is then one more trust anchor. The page, plain HTML and no script (it fits
// a strict Content-Security-Policy), is clearly marked as a test. Its
// "Present" button answers the request as a real wallet does: it fetches the
// signed request object from the request_uri, verifies it, signs a proof of
// age over 18 with the device key over that request's session transcript and
// posts the vp_token to the response URI; "Decline" posts the OpenID4VP
// error answer with the request's state. Both go through this process's own
// request handling (the same routes as a wallet's), so the issuer that made
// the proof is the one the verifier trusts. Only the member whose request it
// is sees its page and presses its buttons, from this site's own page.

import type { Context } from 'hono'
import { Hono } from 'hono'
import { html } from 'hono/html'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { samePath } from '../contract/rules/index.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { fromOwnPage } from '../http/origin.ts'
import { type AuthEnv, nowOf, sessionMember } from '../http/session.ts'
import { testPage } from '../http/test-page.ts'
import { pathOf, validate } from '../http/validate.ts'
import { type AccountsDeps, linkBase } from '../mail/site.ts'
import { type AgeDeps, checkState, requestUriOf, type TestWallet } from './age.ts'
import { decline, present, type TestIssuer, testIssuer } from './testing/wallet.ts'

/** A test issuer is made again after this long: its signer and proofs hold 90 days. */
const ISSUER_LIFETIME_MS = 30 * 86_400_000

export function testWallet(clock: () => number = Date.now): TestWallet {
  let made: { at: number; issuer: Promise<TestIssuer> } | undefined
  const issuer = () => {
    if (!made || clock() - made.at > ISSUER_LIFETIME_MS)
      made = { at: clock(), issuer: testIssuer('Demo Test Age Issuer') }
    return made.issuer
  }
  return { issuer, anchors: async () => [(await issuer()).anchorDer] }
}

/** A request through the app's own handling (set once the app exists, as the test payments' webhook). */
export type Dispatch = (url: string, init: RequestInit) => Promise<Response>

const page = (title: string, body: ReturnType<typeof html>) =>
  testPage({
    title,
    banner: html`<strong>TEST WALLET: not a real proof of age.</strong> This is the site's built-in test wallet and test issuer (a demo start or AGE_TEST_WALLET=on); a real site trusts only the EU age verification app's issuers.`,
    body,
  })

/** Back to the site's /age page, with where the member was going (a path of this site only). */
const backOf = (next: string | undefined) => {
  const path = samePath(next)
  return path ? `/age?next=${encodeURIComponent(path)}` : '/age'
}

/** The signed-in member's own pending request; 404 as for an unknown id otherwise. */
async function ownRequest(c: Context<AuthEnv>, db: Db, requestId: string) {
  const memberId = await sessionMember(c, db)
  if (memberId === null) throw notFound()
  return checkState(db, memberId, requestId, nowOf(c))
}

const STATE_TEXT = {
  passed: 'This request was answered: your age is confirmed.',
  refused: 'This request was answered: no proof of age was shared.',
  expired: 'This request has expired. Start a new check on the site.',
} as const

/** The wallet's own requests: to this site, as the member's request came (host, proxy headers). */
function walletIo(c: Context, dispatch: Dispatch) {
  const headers: Record<string, string> = {}
  for (const name of ['host', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for']) {
    const v = c.req.header(name)
    if (v !== undefined) headers[name] = v
  }
  return {
    get: (url: string) => dispatch(url, { headers }),
    post: (url: string, body: string) =>
      dispatch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      }),
  }
}

/** The link the /age page hands a wallet: the client id and where to fetch the request. */
function linkOf(c: Context, accounts: AccountsDeps, requestId: string) {
  const { base } = linkBase(c, accounts)
  if (base === null) throw new ApiFailure(409, 'unknown_site_host')
  const params = new URLSearchParams({
    client_id: `x509_san_dns:${new URL(base).hostname}`,
    request_uri: requestUriOf(base, requestId),
  })
  return `openid4vp://?${params}`
}

/** The wallet's question: present a proof of age over 18, or decline. */
const askPage = (request: string, next: string | undefined) =>
  page(
    'Test wallet: proof of age',
    html`<h1>Test wallet</h1>
      <p>The site asks for a proof that you are 18 or older. Nothing else is shared.</p>
      <form method="post" action="${endpoints.ageTestWalletAction.path}">
        <input type="hidden" name="request" value="${request}" />
        ${next === undefined ? '' : html`<input type="hidden" name="next" value="${next}" />`}
        <p><button type="submit" class="primary" name="action" value="present">Present: over 18</button></p>
        <p><button type="submit" name="action" value="decline">Decline</button></p>
      </form>
      <p><a href="${backOf(next)}">Back to the site</a></p>`,
  )

/** An outcome, and the way back to the site. */
const outcomePage = (heading: string, text: string, next: string | undefined) =>
  page(
    'Test wallet',
    html`<h1>${heading}</h1>
      <p role="status">${text}</p>
      <p><a href="${backOf(next)}">Back to the site</a></p>`,
  )

/**
 * The wallet's answer to the request of `link`, through `io`: a fresh proof
 * of age over 18 from the test issuer, or the error answer of a holder who
 * declines. A request object that cannot be fetched or does not verify
 * (answered, expired meanwhile) gets no answer: 410.
 */
async function answer(
  wallet: TestWallet,
  link: string,
  action: 'present' | 'decline',
  io: ReturnType<typeof walletIo>,
): Promise<Response> {
  try {
    if (action === 'decline') return await decline(link, io.post, io.get)
    const credential = await (await wallet.issuer()).issue({ ageOver18: true })
    return (await present(link, credential, io)).response
  } catch (e) {
    console.warn('age: test wallet could not answer', (e as Error).message)
    return new Response(null, { status: 410 })
  }
}

export const testWalletRoutes = (
  db: Db,
  deps: AgeDeps,
  accounts: AccountsDeps,
  dispatchOf: () => Dispatch,
) => {
  const trustProxy = accounts.trustProxy ?? false
  const wallet = deps.testWallet
  return new Hono<AuthEnv>()
    .get(
      pathOf(endpoints.ageTestWallet),
      validate('query', endpoints.ageTestWallet.query),
      async (c) => {
        if (!wallet) throw notFound()
        const { request, next } = c.req.valid('query')
        const { state } = await ownRequest(c, db, request)
        if (state !== 'pending') return c.html(outcomePage('Test wallet', STATE_TEXT[state], next))
        return c.html(askPage(request, next))
      },
    )
    .post(
      pathOf(endpoints.ageTestWalletAction),
      validate('form', endpoints.ageTestWalletAction.body),
      async (c) => {
        if (!wallet) throw notFound()
        const { request, next, action } = c.req.valid('form')
        if (!fromOwnPage(c, trustProxy)) throw new ApiFailure(403, 'cross_origin_refused')
        const { state } = await ownRequest(c, db, request)
        if (state !== 'pending')
          return c.html(outcomePage('Not answered', STATE_TEXT[state], next), 409)
        const link = linkOf(c, accounts, request)
        const answered = await answer(wallet, link, action, walletIo(c, dispatchOf()))
        if (answered.ok && action === 'present') return c.redirect(backOf(next), 303)
        if (answered.ok)
          return c.html(
            outcomePage(
              'Declined',
              'You declined: no proof of age was shared, and your age is not confirmed. You can start a new check on the site.',
              next,
            ),
          )
        return c.html(
          outcomePage(
            'Not answered',
            `The site did not take the answer (${answered.status}): the request may have been answered already or expired. Start a new check on the site.`,
            next,
          ),
          409,
        )
      },
    )
}
