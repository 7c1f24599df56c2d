import { Hono } from 'hono'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import type {
  MailChangeDoResponse,
  MailChangePending,
  MailChangeResponse,
  ResetPasswordDoResponse,
  ResetPasswordResponse,
  ValidateEmailResponse,
} from '../contract/index.ts'
import { ApiFailure } from '../http/errors.ts'
import { enforce } from '../http/ratelimit.ts'
import { type AuthEnv, nowOf, requireMember, sessionMember, startSession } from '../http/session.ts'
import { parseOr400, pathOf, queryOf, validate } from '../http/validate.ts'
import { type AccountsDeps, ipOf, linkBase } from '../mail/site.ts'
import { loginBarOf } from '../moderation/index.ts'
import { loadSettings } from '../settings/index.ts'
import { emailStatus, normalizeEmail } from './accounts.ts'
import { activate, activationStatus, resendActivation } from './activation.ts'
import { refuseDisposable } from './disposable.ts'
import { applyMailChange, requestMailChange } from './mail-change.ts'
import { requestReset, resetPassword } from './reset.ts'
import { pendingEmail, voidTokens } from './tokens.ts'

/**
 * `?do=1` selects the second endpoint on the same path (endpoints.resetPassword,
 * endpoints.confirmMailChange); the body is parsed by the chosen one's schema.
 */
const DoQuery = z.object({ do: z.literal('1').optional() })

/**
 * The email check, activation, password reset and mail change.
 * Links in mails go to client pages (/reset-password/do, /mail-change/do)
 * that POST the token, except activation, whose link is this API's own GET:
 * it activates and redirects to /activate/done or /activate/error.
 */
export const accountRoutes = (db: Db, deps: AccountsDeps) =>
  new Hono<AuthEnv>()
    .get(pathOf(endpoints.validateEmail), queryOf(endpoints.validateEmail), async (c) => {
      // Spec §3 answers whether an address has an account (the sign-up form
      // needs it, §5); the limit is what keeps it from being a bulk oracle.
      await enforce(c, db, 'validate_email', ipOf(c, deps))
      const requested = c.req.valid('query').email
      // A throw-away domain is refused from the address alone (docs/accounts.md).
      refuseDisposable(requested)
      const status = await emailStatus(db, requested)
      return c.json({
        status,
        token: null,
        email: normalizeEmail(requested),
        request_email: requested,
      } satisfies ValidateEmailResponse)
    })
    .get(pathOf(endpoints.activate), queryOf(endpoints.activate), async (c) => {
      const { token } = c.req.valid('query')
      if (token !== undefined) {
        return c.redirect((await activate(db, token)) ? '/activate/done' : '/activate/error', 302)
      }
      const memberId = await sessionMember(c, db)
      if (memberId === null) throw new ApiFailure(403, 'not_logged_in')
      return c.json(await activationStatus(db, memberId))
    })
    .post(pathOf(endpoints.resendActivation), requireMember(db), async (c) => {
      const memberId = c.get('memberId')
      await enforce(c, db, 'activation_resend', `member:${memberId}`)
      const settings = await loadSettings(db)
      const status = await resendActivation(db, memberId, {
        settings,
        links: linkBase(c, deps),
        mailer: deps.mailer,
      })
      return c.json({ status })
    })
    .post(pathOf(endpoints.resetPassword), validate('query', DoQuery), async (c) => {
      const raw = await c.req.json().catch(() => undefined)
      if (c.req.valid('query').do) {
        const body = parseOr400(endpoints.resetPassword.body, raw)
        const memberId = await resetPassword(db, body.token, body.password)
        // A suspended or banned member gets the new password but no session.
        if (!(await loginBarOf(db, memberId, nowOf(c)))) await startSession(c, db, memberId)
        return c.json({ status: 'done' } satisfies ResetPasswordDoResponse)
      }
      const { email } = parseOr400(endpoints.requestPasswordReset.body, raw)
      // Per address and per client: neither tells whether the address is known.
      await enforce(c, db, 'reset_ip', ipOf(c, deps))
      await enforce(c, db, 'reset', normalizeEmail(email))
      const settings = await loadSettings(db)
      await requestReset(db, email, { settings, links: linkBase(c, deps), mailer: deps.mailer })
      return c.json({ status: 'sent' } satisfies ResetPasswordResponse)
    })
    .get(pathOf(endpoints.pendingMailChange), requireMember(db), async (c) =>
      c.json({
        pending_email: await pendingEmail(db, c.get('memberId')),
      } satisfies MailChangePending),
    )
    .delete(pathOf(endpoints.cancelMailChange), requireMember(db), async (c) => {
      // /notifications#email-change-incorrect: the member calls the change off.
      await voidTokens(db, c.get('memberId'), 'mail_change')
      return c.json({ pending_email: null } satisfies MailChangePending)
    })
    .post(pathOf(endpoints.confirmMailChange), validate('query', DoQuery), async (c) => {
      const raw = await c.req.json().catch(() => undefined)
      if (c.req.valid('query').do) {
        // No session needed: the link may be opened in the new mailbox's browser.
        const { token } = parseOr400(endpoints.confirmMailChange.body, raw)
        const email = await applyMailChange(db, token)
        return c.json({ status: 'done', email } satisfies MailChangeDoResponse)
      }
      const memberId = await sessionMember(c, db)
      if (memberId === null) throw new ApiFailure(403, 'not_logged_in')
      const body = parseOr400(endpoints.requestMailChange.body, raw)
      await enforce(c, db, 'mail_change', `member:${memberId}`)
      const settings = await loadSettings(db)
      await requestMailChange(db, memberId, body, {
        settings,
        links: linkBase(c, deps),
        mailer: deps.mailer,
      })
      return c.json({ status: 'sent' } satisfies MailChangeResponse)
    })
