// The account calls of the sync worker (issue 3): sign-up, the member's own
// account, email check, activation, password reset, mail change, pictures,
// reference data and push. Runs inside the worker like engine.ts: every
// answer is parsed with the contract before the page sees it, and whatever
// changes the signed-in member goes through engine.setUser, the one writer.
import type { z } from 'zod'
import {
  AccountUser,
  ActivateStatusResponse,
  DeleteAccountResponse,
  DevMailResponse,
  GeocodeResponse,
  InterestsResponse,
  MailChangeDoResponse,
  MailChangePending,
  MailChangeResponse,
  ProfileFieldsResponse,
  ProfileImagesResponse,
  PushSubscribeResponse,
  RegionsResponse,
  ResendActivationResponse,
  ResetPasswordDoResponse,
  ResetPasswordResponse,
  Settings,
  type SignupRequest,
  SignupResponse,
  type UserUpdateRequest,
  ValidateEmailResponse,
} from '../../api/contract/index.ts'
import type { SyncEngine } from '../engine.ts'
import { ok, type Result } from '../core/errors.ts'
import { call } from '../core/http.ts'

/** Settings change when an operator edits them; a worker re-reads them after this long. */
const SETTINGS_TTL_MS = 5 * 60_000

/** The browser's PushSubscription.toJSON(), as the page hands it over. */
export interface PushSubscriptionData {
  endpoint: string
  expirationTime?: number | null
  keys?: Record<string, string>
}

export type { AccountUser, Settings, ValidateEmailResponse }

export function accountApi(engine: SyncEngine) {
  let settingsCache: { at: number; value: Settings } | undefined
  /** Spec §7: a new email check aborts the previous one. */
  let emailCheck: AbortController | undefined

  /** Keeps the engine's stored user in step with an account answer. */
  async function adopt(res: Result<AccountUser>): Promise<Result<AccountUser>> {
    if (res.ok) {
      const { account: _account, ...user } = res.value
      await engine.setUser(user)
    }
    return res
  }

  return {
    async settings(): Promise<Result<Settings>> {
      if (settingsCache && Date.now() - settingsCache.at < SETTINGS_TTL_MS) {
        return ok(settingsCache.value)
      }
      const res = await call('/api/settings.php', Settings)
      if (res.ok) settingsCache = { at: Date.now(), value: res.value }
      return res
    },

    /**
     * GET /api/validate_email.php. A newer check aborts this one, which then
     * answers `{code: 'aborted'}` (the page drops it). Spec §8: any other
     * failure counts as status invalid.
     */
    async validateEmail(email: string): Promise<Result<ValidateEmailResponse>> {
      emailCheck?.abort()
      const controller = new AbortController()
      emailCheck = controller
      const res = await call('/api/validate_email.php', ValidateEmailResponse, {
        query: { email },
        signal: controller.signal,
      })
      if (emailCheck === controller) emailCheck = undefined
      if (res.ok || res.error.code === 'aborted') return res
      return ok({ status: 'invalid', token: null, email, request_email: email })
    },

    /**
     * POST /api/user.php?new=1, then the account. The answer is the same
     * whether or not the address was free (no enumeration): only a new account
     * gets a session, so `user` null means "the owner was mailed instead".
     */
    async signup(payload: SignupRequest): Promise<Result<{ user: AccountUser | null }>> {
      const res = await call('/api/user.php', SignupResponse, {
        method: 'POST',
        query: { new: 1 },
        body: payload,
      })
      if (!res.ok) return res
      const account = await call('/api/user.php', AccountUser)
      if (account.ok) {
        await adopt(account)
        return ok({ user: account.value })
      }
      return account.error.status === 403 ? ok({ user: null }) : account
    },

    /** GET /api/user.php with the account part (sign-up resume, /profile). */
    async account(): Promise<Result<AccountUser>> {
      const res = await call('/api/user.php', AccountUser)
      if (!res.ok && res.error.status === 403) await engine.setUser(null)
      return adopt(res)
    },

    /** PUT /api/user.php: location and/or profile (spec §7). */
    updateAccount: async (body: UserUpdateRequest) =>
      adopt(await call('/api/user.php', AccountUser, { method: 'PUT', body })),

    /** POST /api/profileimage.php, multipart field `file` once per picture. */
    async uploadImages(files: Blob[]): Promise<Result<z.output<typeof ProfileImagesResponse>>> {
      const form = new FormData()
      for (const f of files) form.append('file', f, f instanceof File ? f.name : 'photo')
      const res = await call('/api/profileimage.php', ProfileImagesResponse, {
        method: 'POST',
        body: form,
      })
      if (res.ok) await engine.refreshUser()
      return res
    },

    async setMainImage(id: number) {
      const res = await call('/api/profileimage.php', ProfileImagesResponse, {
        method: 'PUT',
        body: { id },
      })
      if (res.ok) await engine.refreshUser()
      return res
    },

    async deleteImage(id: number) {
      const res = await call('/api/profileimage.php', ProfileImagesResponse, {
        method: 'DELETE',
        body: { id },
      })
      if (res.ok) await engine.refreshUser()
      return res
    },

    /** Spec §4 step 6: has the activation mail left? */
    activationStatus: () => call('/api/activate.php', ActivateStatusResponse),
    resendActivation: () => call('/api/activate.php', ResendActivationResponse, { method: 'POST' }),

    requestPasswordReset: (email: string) =>
      call('/api/reset_password.php', ResetPasswordResponse, { method: 'POST', body: { email } }),

    /** Sets the password; the server signs this browser in with a new session. */
    async resetPassword(token: string, password: string) {
      const res = await call('/api/reset_password.php', ResetPasswordDoResponse, {
        method: 'POST',
        query: { do: 1 },
        body: { token, password },
      })
      if (res.ok) await engine.refreshUser()
      return res
    },

    requestMailChange: (email: string, password: string) =>
      call('/api/mail_change.php', MailChangeResponse, {
        method: 'POST',
        body: { email, password },
      }),
    pendingMailChange: () => call('/api/mail_change.php', MailChangePending),
    cancelMailChange: () => call('/api/mail_change.php', MailChangePending, { method: 'DELETE' }),

    /** Applies a mailed change; a signed-in member sees the new address at once. */
    async confirmMailChange(token: string) {
      const res = await call('/api/mail_change.php', MailChangeDoResponse, {
        method: 'POST',
        query: { do: 1 },
        body: { token },
      })
      if (res.ok && (await engine.getUser())) await engine.refreshUser()
      return res
    },

    /** DELETE /api/user.php; the session ends with the account, so the store is wiped. */
    async deleteAccount(password: string) {
      const res = await call('/api/user.php', DeleteAccountResponse, {
        method: 'DELETE',
        body: { password },
      })
      if (res.ok) await engine.setUser(null)
      return res
    },

    regions: () => call('/api/regions.php', RegionsResponse),
    interests: () => call('/api/interests.php', InterestsResponse),
    profileFields: () => call('/api/profile_fields.php', ProfileFieldsResponse),
    geocode: (lat: number, lon: number) =>
      call('/api/geocode.php', GeocodeResponse, { query: { lat, lon } }),

    /** The developer page /_dev/mail (store-only mail mode). */
    devMails: () => call('/api/_dev/mail.php', DevMailResponse),

    /** POST /api/user.php?push=1 {subscription} (spec §7); polling slows down (§9). */
    async addPushSubscription(subscription: PushSubscriptionData): Promise<Result<null>> {
      const res = await call('/api/user.php', PushSubscribeResponse, {
        method: 'POST',
        query: { push: 1 },
        body: { subscription },
      })
      if (!res.ok) return res
      engine.setPushSubscribed(true)
      return ok(null)
    },
  }
}

export type AccountApi = ReturnType<typeof accountApi>
