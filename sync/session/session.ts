// The signed-in member: one writer (setUser), and one reaction when the
// session ends, whatever ended it (logout, account deletion, a 403 from
// user.php): the store is wiped, the page is told to drop the member's cached
// pictures, the badge goes to 0, and the polling stops.
import { LoginRequest, User } from '../../api/contract/index.ts'
import type { SyncContext } from '../core/context.ts'
import { fail, ok, type Result } from '../core/errors.ts'
import { wipedMeanwhile } from '../core/fence.ts'
import { request } from '../core/http.ts'
import { kvGet, kvPut } from '../store/kv.ts'

export interface SessionHooks {
  /** A member appeared (login, sign-up, a stored user at start). */
  started(): void
  /** The session ended; the store is already wiped. */
  ended(): void
}

export class SessionSync {
  constructor(
    private readonly ctx: SyncContext,
    private readonly hooks: SessionHooks,
  ) {}

  async getUser(): Promise<User | null> {
    const parsed = User.safeParse(await kvGet(this.ctx.db, 'user'))
    return parsed.success ? parsed.data : null
  }

  /**
   * The one writer of the signed-in member. `epoch` is the store's when the
   * answer carrying the member was asked for (sync/core/fence.ts): the
   * check, the read of the member before and the write are one transaction,
   * so a logout that wiped the store meanwhile, even between the answer and
   * this write, leaves no member row behind it.
   */
  async setUser(user: User | null, epoch: number = this.ctx.db.epoch): Promise<void> {
    if (!user) return this.endSession()
    const { db } = this.ctx
    const before = await db.transaction('rw', db.kv, async () => {
      if (db.epoch !== epoch) return undefined
      const stored = User.safeParse(await kvGet(db, 'user'))
      await kvPut(db, 'user', user)
      return { signedIn: stored.success }
    })
    if (before === undefined) return
    this.ctx.emit({ type: 'user', user })
    // Spec §4: when a user appears, periodic refresh starts.
    if (!before.signedIn) this.hooks.started()
  }

  /** Logout, account deletion and an expired session all end here. */
  async endSession(): Promise<void> {
    await this.ctx.db.wipe()
    this.hooks.ended()
    this.ctx.emit({ type: 'user', user: null })
    this.ctx.emit({ type: 'badge', count: 0 })
    this.ctx.emit({ type: 'session_ended' })
  }

  async login(email: string, password: string): Promise<Result<User>> {
    const body = LoginRequest.safeParse({ email, password })
    if (!body.success) {
      const field = body.error.issues[0]?.path.join('.') ?? 'email'
      return fail({ code: 'invalid_input', message: body.error.message, field })
    }
    const res = await request('login', { body: body.data })
    if (res.ok) {
      // A different member may have used this device: start from an empty store.
      const previous = await this.getUser()
      if (previous && previous.profile.id !== res.value.profile.id) await this.ctx.db.wipe()
      await this.setUser(res.value)
    }
    return res
  }

  /**
   * Spec §4: logout succeeds when the server answers done; on an error the
   * user is cleared all the same. Either way the local store is wiped.
   */
  async logout(): Promise<Result<null>> {
    const res = await request('logout')
    await this.endSession()
    return res.ok ? ok(null) : fail(res.error)
  }

  /** GET /api/user.php; a 403 ends the session (spec §8). */
  async refreshUser(): Promise<Result<User | null>> {
    const epoch = this.ctx.db.epoch
    const res = await request('user')
    if (this.ctx.db.epoch !== epoch) return wipedMeanwhile()
    if (res.ok) {
      // setUser checks the epoch again in its write's own transaction.
      await this.setUser(res.value, epoch)
      this.ctx.emit({ type: 'synced', what: 'user' })
      return res
    }
    if (res.error.status === 403) {
      if (await this.getUser()) await this.endSession()
      else this.ctx.emit({ type: 'user', user: null })
      return ok(null)
    }
    return res
  }

  /** A 403 from chats or likes means the session may be gone: ask for the user again. */
  async sessionGone(error: { status?: number }): Promise<void> {
    if (error.status === 403) await this.refreshUser()
  }
}
