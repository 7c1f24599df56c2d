import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { LoginUnlockResponse, LogoutResponse } from '../contract/index.ts'
import { ApiFailure } from '../http/errors.ts'
import { fromAnotherSite } from '../http/origin.ts'
import { enforce, forgive } from '../http/ratelimit.ts'
import { endSession, nowOf, startSession } from '../http/session.ts'
import { bodyOf, pathOf } from '../http/validate.ts'
import { type AccountsDeps, ipOf, linkBase } from '../mail/site.ts'
import { loginBarOf } from '../moderation/index.ts'
import { loadSettings } from '../settings/index.ts'
import { loginAccountKey, memberByEmail } from './accounts.ts'
import { loginAddressKey, offerLoginUnlock, unlockLogin } from './login-unlock.ts'
import { dummyHash, verifyPassword } from './password.ts'
import { toUser } from './user.ts'

export const authRoutes = (db: Db, deps: AccountsDeps) =>
  new Hono()
    .post(pathOf(endpoints.login), bodyOf(endpoints.login), async (c) => {
      const { email, password } = c.req.valid('json')
      const accountKey = loginAccountKey(email)
      const addressKey = loginAddressKey(email, ipOf(c, deps))
      // Both counted before the check, so parallel guesses cannot slip past,
      // and for known and unknown addresses alike (no difference to observe).
      try {
        // Per address + account: others' guesses never slow the owner's own
        // address down.
        await enforce(c, db, 'login', addressKey)
        // Per account from every address together: a botnet's ceiling.
        await enforce(c, db, 'login_account', accountKey)
      } catch (e) {
        // Refused: the owner (if any) is mailed a link that lifts both; the
        // answer is the same 429 whoever asks (api/accounts/login-unlock.ts).
        if (e instanceof ApiFailure && e.status === 429) {
          const settings = await loadSettings(db)
          const links = linkBase(c, deps)
          await offerLoginUnlock(db, email, { settings, links, mailer: deps.mailer }, nowOf(c))
        }
        throw e
      }
      const member = await memberByEmail(db, email)
      // Unknown email and wrong password take the same path and time, and get
      // the same answer: the response never tells whether an account exists.
      const ok = await verifyPassword(member?.passwordHash ?? (await dummyHash()), password)
      if (!member || !ok) throw new ApiFailure(401, 'invalid_credentials')
      // A right password was no guess: both counts take it back.
      await forgive(db, 'login', addressKey)
      await forgive(db, 'login_account', accountKey)
      // A suspended or banned member is told so (with the right password
      // only): the end date, the rule, and the statement sent by mail.
      const bar = await loginBarOf(db, member.id, nowOf(c))
      if (bar?.kind === 'ban')
        throw new ApiFailure(403, 'banned', undefined, 'this account is closed', { rule: bar.rule })
      if (bar)
        throw new ApiFailure(403, 'suspended', undefined, bar.endsAt?.toISOString(), {
          until: bar.endsAt?.toISOString() ?? '',
          rule: bar.rule,
        })
      await startSession(c, db, member.id)
      return c.json(await toUser(db, member))
    })
    .post(pathOf(endpoints.loginUnlock), bodyOf(endpoints.loginUnlock), async (c) => {
      // The mailed link (opened on /login-unlock): no session, signs nobody in.
      await unlockLogin(db, c.req.valid('json').token)
      return c.json({ status: 'done' } satisfies LoginUnlockResponse)
    })
    .get(pathOf(endpoints.logout), async (c) => {
      // Spec §7 makes logout a GET; a GET is sent by any site's link or
      // redirect (SameSite=Lax allows top-level navigations), so a logout that
      // another site started is refused.
      if (fromAnotherSite(c)) {
        throw new ApiFailure(403, 'cross_origin_refused')
      }
      await endSession(c, db)
      return c.json({ status: 'done' } satisfies LogoutResponse)
    })
