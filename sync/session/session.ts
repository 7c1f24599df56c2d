// The signed-in member: one writer (setUser), and one reaction when the
// session ends, whatever ended it (logout, account deletion, a 403 from
// user.php): the store is wiped, the page is told to drop the member's cached
// pictures, the badge goes to 0, and the polling stops.
import { LoginRequest, User } from '../../api/contract/index.ts'
import type { SyncContext } from '../core/context.ts'
import { fail, ok, type Result } from '../core/errors.ts'
import { fenced } from '../core/fence.ts'
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

  /** The one writer of the signed-in member. */
  async setUser(user: User | null): Promise<void> {
    if (!user) return this.endSession()
    const before = await this.getUser()
    await kvPut(this.ctx.db, 'user', user)
    this.ctx.emit({ type: 'user', user })
    // Spec §4: when a user appears, periodic refresh starts.
    if (!before) this.hooks.started()
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
    const res = await fenced(this.ctx.db, () => request('user'))
    if (res.ok) {
      await this.setUser(res.value)
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
