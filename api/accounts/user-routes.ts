import { type Context, Hono } from 'hono'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import type {
  DeleteAccountResponse,
  PushSubscribeResponse,
  SignupResponse,
} from '../contract/index.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { requestHost } from '../http/host.ts'
import { enforce } from '../http/ratelimit.ts'
import {
  type AuthEnv,
  endSession,
  requireMember,
  sessionHashOf,
  startSession,
} from '../http/session.ts'
import { bodyOf, parseOr400, pathOf, validate } from '../http/validate.ts'
import { type PictureStore, removeFilesNow } from '../images/index.ts'
import type { JobRunner } from '../jobs/queue.ts'
import { type AccountsDeps, ipOf, linkBase } from '../mail/site.ts'
import { checkPushEndpoint, saveSubscription } from '../push/index.ts'
import { cachedOperatorSettings, loadSettings, siteKeyOf } from '../settings/index.ts'
import {
  accountUserById,
  checkPassword,
  deleteAccount,
  signup,
  signupsOpen,
  updateAccount,
} from './accounts.ts'
import { refuseDisposable } from './disposable.ts'
import { assertStrongPassword } from './password.ts'
import { liveMember } from './user.ts'

/** POST /api/user.php is two calls (spec §7): ?new=1 sign-up, ?push=1 push subscription. */
/** `?new=1` (endpoints.signup) or `?push=1` (endpoints.pushSubscribe) on the same path. */
const PostQuery = z.object({ new: z.literal('1').optional(), push: z.literal('1').optional() })

export const userRoutes = (
  db: Db,
  deps: AccountsDeps,
  media: { pictures?: PictureStore | undefined; jobs?: JobRunner } = {},
) => {
  /** The host's settings.fake_reports_to_hide, from the process's cache (no round trip). */
  const fakeReportsToHide = async (c: Context) =>
    (await cachedOperatorSettings(db, requestHost(c, deps.trustProxy ?? false)))
      .fake_reports_to_hide
  return new Hono<AuthEnv>()
    .get(pathOf(endpoints.user), requireMember(db), async (c) => {
      // The member row and what goes with it, in one statement (one snapshot).
      const user = await accountUserById(db, c.get('memberId'), await fakeReportsToHide(c))
      if (!user) throw new ApiFailure(403, 'not_logged_in')
      return c.json(user)
    })
    .post(pathOf(endpoints.signup), validate('query', PostQuery), async (c, next) => {
      const query = c.req.valid('query')
      if (query.push) return next()
      if (!query.new) throw notFound()
      const input = parseOr400(endpoints.signup.body, await c.req.json().catch(() => undefined))
      refuseDisposable(input.email)
      assertStrongPassword(input.password, input.email)
      const settings = await loadSettings(db)
      if (!signupsOpen(settings, input.trafficsource?.network)) {
        throw new ApiFailure(403, 'signups_closed')
      }
      await enforce(c, db, 'signup', ipOf(c, deps))
      const outcome = await signup(db, input, {
        settings,
        links: linkBase(c, deps),
        mailer: deps.mailer,
        country: settings.geoip_selected_country ?? settings.geoip_country,
        site: await siteKeyOf(db, requestHost(c, deps.trustProxy ?? false)),
      })
      // The same answer either way; only a new account gets a session.
      if (outcome.created) await startSession(c, db, outcome.memberId)
      return c.json({ status: 'received' } satisfies SignupResponse)
    })
    .post(
      pathOf(endpoints.pushSubscribe),
      requireMember(db),
      bodyOf(endpoints.pushSubscribe),
      async (c) => {
        const { endpoint, keys } = c.req.valid('json').subscription
        const memberId = c.get('memberId')
        // The server will post to this URL: https to a public host only (SSRF).
        const trusted =
          URL.canParse(endpoint) && deps.pushHttpOrigins?.includes(new URL(endpoint).origin)
        const verdict = trusted
          ? ({ ok: true } as const)
          : await checkPushEndpoint(endpoint, deps.lookupHost)
        if (!verdict.ok) {
          if (verdict.retryable) {
            c.header('Retry-After', '60')
            throw new ApiFailure(503, 'dns_unavailable', 'subscription.endpoint')
          }
          throw new ApiFailure(
            400,
            'invalid_input',
            'subscription.endpoint',
            `subscription.endpoint: ${verdict.reason}`,
          )
        }
        // One endpoint is one browser and one member (api/push/subscriptions.ts).
        if (!(await saveSubscription(db, memberId, { endpoint, keys }, sessionHashOf(c)))) {
          throw new ApiFailure(409, 'endpoint_taken', 'subscription.endpoint')
        }
        return c.json({ status: 'subscribed' } satisfies PushSubscribeResponse)
      },
    )
    .put(
      pathOf(endpoints.updateAccount),
      requireMember(db),
      bodyOf(endpoints.updateAccount),
      async (c) => {
        const member = await liveMember(db, c.get('memberId'))
        if (!member) throw new ApiFailure(403, 'not_logged_in')
        const settings = await loadSettings(db)
        const updated = await updateAccount(db, member, c.req.valid('json'), settings)
        const user = await accountUserById(db, updated.id, await fakeReportsToHide(c))
        if (!user) throw new ApiFailure(403, 'not_logged_in')
        return c.json(user)
      },
    )
    .delete(
      pathOf(endpoints.deleteAccount),
      requireMember(db),
      bodyOf(endpoints.deleteAccount),
      async (c) => {
        const memberId = c.get('memberId')
        // A stolen session must not be able to guess the password here.
        await enforce(c, db, 'login', `member:${memberId}`)
        await checkPassword(db, memberId, c.req.valid('json').password)
        const files = await deleteAccount(db, memberId)
        await endSession(c, db)
        if (!(await removeFilesNow(media.pictures, files))) media.jobs?.poke()
        return c.json({ status: 'deleted' } satisfies DeleteAccountResponse)
      },
    )
}
