import { Hono } from 'hono'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { pushSubscriptions } from '../../db/schema.ts'
import { type AuthEnv, endSession, requireMember, startSession } from '../http/session.ts'
import {
  DeleteAccountRequest,
  type DeleteAccountResponse,
  PushSubscribeRequest,
  type PushSubscribeResponse,
  SignupRequest,
  type SignupResponse,
  UserUpdateRequest,
} from '../contract/index.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import {
  checkPassword,
  deleteAccount,
  signup,
  signupsOpen,
  toAccountUser,
  updateAccount,
} from './accounts.ts'
import { enforce } from '../http/ratelimit.ts'
import { loadSettings } from '../settings/settings.ts'
import { liveMember } from './user.ts'
import { validate } from '../http/validate.ts'
import { type AccountsDeps, ipOf, linkBase, parseOr400 } from './deps.ts'

/** POST /api/user.php is two calls (spec §7): ?new=1 sign-up, ?push=1 push subscription. */
const PostQuery = z.object({ new: z.literal('1').optional(), push: z.literal('1').optional() })

export const userRoutes = (db: Db, deps: AccountsDeps) =>
  new Hono<AuthEnv>()
    .get('/user.php', requireMember(db), async (c) => {
      const member = await liveMember(db, c.get('memberId'))
      if (!member) throw new ApiFailure(403, 'not_logged_in')
      return c.json(await toAccountUser(db, member))
    })
    .post('/user.php', validate('query', PostQuery), async (c, next) => {
      const query = c.req.valid('query')
      if (query.push) return next()
      if (!query.new) throw notFound()
      const input = parseOr400(SignupRequest, await c.req.json().catch(() => undefined))
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
      })
      // The same answer either way (issue 3); only a new account gets a session.
      if (outcome.created) await startSession(c, db, outcome.memberId)
      return c.json({ status: 'received' } satisfies SignupResponse)
    })
    .post('/user.php', requireMember(db), validate('json', PushSubscribeRequest), async (c) => {
      const { endpoint, keys } = c.req.valid('json').subscription
      const memberId = c.get('memberId')
      // One endpoint is one browser: a new sign-in on it takes it over.
      await db
        .insert(pushSubscriptions)
        .values({ memberId, endpoint, p256dh: keys.p256dh, auth: keys.auth })
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: { memberId, p256dh: keys.p256dh, auth: keys.auth },
        })
      return c.json({ status: 'subscribed' } satisfies PushSubscribeResponse)
    })
    .put('/user.php', requireMember(db), validate('json', UserUpdateRequest), async (c) => {
      const member = await liveMember(db, c.get('memberId'))
      if (!member) throw new ApiFailure(403, 'not_logged_in')
      const settings = await loadSettings(db)
      const updated = await updateAccount(db, member, c.req.valid('json'), settings)
      return c.json(await toAccountUser(db, updated))
    })
    .delete('/user.php', requireMember(db), validate('json', DeleteAccountRequest), async (c) => {
      const memberId = c.get('memberId')
      // A stolen session must not be able to guess the password here.
      await enforce(c, db, 'login', `member:${memberId}`)
      await checkPassword(db, memberId, c.req.valid('json').password)
      await deleteAccount(db, memberId)
      await endSession(c, db)
      return c.json({ status: 'deleted' } satisfies DeleteAccountResponse)
    })
