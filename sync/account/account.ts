// The account calls of the sync worker: sign-up, the member's own
// account, email check, activation, password reset, mail change, login
// unlock, pictures, reference data and push. Runs inside the worker: every
// answer is parsed with the contract before the page sees it, whatever
// changes the signed-in member goes through the session (the one writer of
// the user), and the member's own account part is stored (kv `account`) so
// /profile shows it offline.
import type { z } from 'zod'
import type {
  AccountUser,
  ProfileImagesResponse,
  Settings,
  SignupRequest,
  UserUpdateRequest,
  ValidateEmailResponse,
} from '../../api/contract/index.ts'
import type { SyncContext } from '../core/context.ts'
import { fail, ok, type Result } from '../core/errors.ts'
import { request } from '../core/http.ts'
import type { SessionSync } from '../session/session.ts'
import { settings } from '../settings/settings.ts'
import { kvPut } from '../store/kv.ts'

/** The browser's PushSubscription.toJSON(), as the page hands it over. */
export interface PushSubscriptionData {
  endpoint: string
  expirationTime?: number | null
  keys?: Record<string, string>
}

export type { AccountUser, Settings, ValidateEmailResponse }

export interface AccountDeps {
  ctx: SyncContext
  session: SessionSync
  /** The device now has a push subscription (spec §9: slower polling). */
  setPushSubscribed(subscribed: boolean): Promise<void>
}

export function accountHandlers(deps: AccountDeps) {
  const { ctx, setPushSubscribed } = deps
  return {
    /** The site settings from the store, refreshed when stale (sync/settings). */
    settings: (): Promise<Result<Settings>> => settings(ctx),
    ...signupHandlers(deps),
    ...pictureHandlers(deps),
    ...credentialHandlers(deps),
    ...deviceHandlers(deps),

    regions: () => request('regions'),
    interests: () => request('interests'),
    profileFields: () => request('profileFields'),
    geocode: (lat: number, lon: number) => request('geocode', { query: { lat, lon } }),

    /** The developer page /_dev/mail (store-only mail mode). */
    devMails: () => request('devMails'),

    /** POST /api/user.php?push=1 {subscription} (spec §7); polling slows down (§9). */
    async addPushSubscription(subscription: PushSubscriptionData): Promise<Result<null>> {
      const { endpoint, keys } = subscription
      if (!keys?.p256dh || !keys.auth) {
        return fail({ code: 'invalid_input', field: 'subscription.keys', message: 'no keys' })
      }
      const res = await request('pushSubscribe', {
        body: { subscription: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } } },
      })
      if (!res.ok) return res
      await setPushSubscribed(true)
      return ok(null)
    },
  }
}

/** The sign-up flow and the member's own account: email check, sign-up, account, update. */
function signupHandlers({ ctx, session }: AccountDeps) {
  /** Spec §7: a new email check aborts the previous one. */
  let emailCheck: AbortController | undefined

  /**
   * Keeps the stored user and account part in step with an account answer.
   * `epoch` is the store's when the answer was asked for: after a logout
   * meanwhile nothing of the member is written (sync/core/fence.ts).
   */
  async function adopt(
    res: Result<AccountUser>,
    epoch: number = ctx.db.epoch,
  ): Promise<Result<AccountUser>> {
    if (res.ok) {
      const { account, ...user } = res.value
      await session.setUser(user, epoch)
      if (ctx.db.epoch !== epoch) return res
      await kvPut(ctx.db, 'account', account)
      ctx.emit({ type: 'synced', what: 'account' })
    }
    return res
  }

  return {
    /**
     * GET /api/validate_email.php. A newer check aborts this one, which then
     * answers `{code: 'aborted'}`, also when the abort came while its answer
     * was being read. Any other failure (server trouble, the rate limit, no
     * network, a malformed answer) is passed on as a failure, not as status
     * invalid as spec §8 has it: the page cannot tell a valid address from
     * an invalid one then, so it lets the server's sign-up decide
     * (docs/accounts.md, "The email check never blocks a sign-up").
     */
    async validateEmail(email: string): Promise<Result<ValidateEmailResponse>> {
      emailCheck?.abort()
      const controller = new AbortController()
      emailCheck = controller
      const res = await request('validateEmail', {
        query: { email },
        signal: controller.signal,
      })
      if (emailCheck === controller) emailCheck = undefined
      return res
    },

    /**
     * POST /api/user.php?new=1, then the account. The answer is the same
     * whether or not the address was free (no enumeration): only a new account
     * gets a session, so `user` null means "the owner was mailed instead".
     */
    async signup(payload: SignupRequest): Promise<Result<{ user: AccountUser | null }>> {
      const res = await request('signup', {
        body: payload,
      })
      if (!res.ok) return res
      const account = await request('account')
      if (account.ok) {
        await adopt(account)
        return ok({ user: account.value })
      }
      return account.error.status === 403 ? ok({ user: null }) : account
    },

    /** GET /api/user.php with the account part (sign-up resume, /profile). */
    async account(): Promise<Result<AccountUser>> {
      const epoch = ctx.db.epoch
      const res = await request('account')
      if (!res.ok && res.error.status === 403) await session.endSession()
      return adopt(res, epoch)
    },

    /** PUT /api/user.php: location and/or profile (spec §7). */
    updateAccount: async (body: UserUpdateRequest) =>
      adopt(await request('updateAccount', { body })),
  }
}

/** The member's pictures and the photo verification's selfie. */
function pictureHandlers({ session }: AccountDeps) {
  return {
    /** POST /api/profileimage.php, multipart field `file` once per picture. */
    async uploadImages(files: Blob[]): Promise<Result<z.output<typeof ProfileImagesResponse>>> {
      const form = new FormData()
      for (const f of files) form.append('file', f, f instanceof File ? f.name : 'photo')
      const res = await request('uploadImages', {
        body: form,
      })
      if (res.ok) await session.refreshUser()
      return res
    },

    async setMainImage(id: number) {
      const res = await request('setMainImage', {
        body: { id },
      })
      if (res.ok) await session.refreshUser()
      return res
    },

    /** PUT /api/privatephoto.php: the picture private (locked for others) or public again. */
    async setPhotoPrivate(id: number, makePrivate: boolean) {
      const res = await request('setPhotoPrivate', { body: { id, private: makePrivate } })
      if (res.ok) await session.refreshUser()
      return res
    },

    /** GET /api/photounlock.php: who unlocked the member's private pictures (not stored). */
    photoUnlocks: () => request('photoUnlocks'),

    async deleteImage(id: number) {
      const res = await request('deleteImage', {
        body: { id },
      })
      if (res.ok) await session.refreshUser()
      return res
    },

    /**
     * Photo verification (api/verification/): the state, a start (the pose;
     * `face_consent`, the opt-in to face matching), the selfie, the
     * withdrawal of that consent. Not stored.
     */
    verification: () => request('verification'),
    startVerification: (body: { face_consent?: boolean } = {}) =>
      request('startVerification', { body }),
    withdrawFaceConsent: () => request('withdrawFaceConsent'),
    async uploadSelfie(file: Blob) {
      const form = new FormData()
      form.append('file', file, file instanceof File ? file.name : 'selfie.jpg')
      return request('uploadSelfie', { body: form })
    },
  }
}

/** Activation, password reset, mail change, login unlock and deleting the account. */
function credentialHandlers({ session }: AccountDeps) {
  return {
    /** Spec §4 step 6: has the activation mail left? */
    activationStatus: () => request('activationStatus'),
    resendActivation: () => request('resendActivation'),

    requestPasswordReset: (email: string) => request('requestPasswordReset', { body: { email } }),

    /** Sets the password; the server signs this browser in with a new session. */
    async resetPassword(token: string, password: string) {
      const res = await request('resetPassword', {
        body: { token, password },
      })
      if (res.ok) await session.refreshUser()
      return res
    },

    requestMailChange: (email: string, password: string) =>
      request('requestMailChange', {
        body: { email, password },
      }),
    pendingMailChange: () => request('pendingMailChange'),
    cancelMailChange: () => request('cancelMailChange'),

    /** Applies a mailed change; a signed-in member sees the new address at once. */
    async confirmMailChange(token: string) {
      const res = await request('confirmMailChange', {
        body: { token },
      })
      if (res.ok && (await session.getUser())) await session.refreshUser()
      return res
    },

    /** Follows a mailed login unlock link (/login-unlock); signs nobody in. */
    loginUnlock: (token: string) => request('loginUnlock', { body: { token } }),

    /** DELETE /api/user.php; the session ends with the account, so the store is wiped. */
    async deleteAccount(password: string) {
      const res = await request('deleteAccount', {
        body: { password },
      })
      if (res.ok) await session.endSession()
      return res
    },
  }
}

/** The member's signed-in devices. */
function deviceHandlers({ ctx }: AccountDeps) {
  /** A 403 from a member call: the session is asked for again and ended if gone (spec §8). */
  async function sessionChecked<T>(res: Result<T>): Promise<Result<T>> {
    if (!res.ok && res.error.status === 403) await ctx.sessionGone(res.error)
    return res
  }

  return {
    /**
     * The member's signed-in devices, and ending them (docs/security.md:
     * signed-in devices). A list of this moment, asked for when /profile shows it, so
     * not stored; a 403 means this device's own session ended elsewhere, and
     * goes where every 403 goes (spec §8).
     */
    async sessions() {
      return sessionChecked(await request('sessions'))
    },
    async endSession(id: number) {
      return sessionChecked(await request('endSession', { body: { id } }))
    },
    async endOtherSessions() {
      return sessionChecked(await request('endOtherSessions'))
    },
  }
}

export type AccountHandlers = ReturnType<typeof accountHandlers>
