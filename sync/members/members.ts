// Profile pages, starting a chat, the site settings and webcam tiles: fetched
// by the worker, parsed with the contract and kept in the local store, so a
// page seen once shows again offline.
import type { Result, SyncError } from '../core/errors.ts'
import { fenced } from '../core/fence.ts'
import { request } from '../core/http.ts'
import type { LikesSync } from '../likes/likes.ts'
import type { LocalDb } from '../store/store.ts'
import { camsKey } from './view.ts'

export interface CamFilters {
  gender?: 'male' | 'female' | undefined
  min_age?: number | undefined
  max_age?: number | undefined
}

export interface MembersDeps {
  now: () => number
  sessionGone: (error: SyncError) => Promise<void>
}

export class MembersSync {
  constructor(
    private readonly db: LocalDb,
    private readonly likes: LikesSync,
    private readonly deps: MembersDeps,
  ) {}

  /**
   * GET /api/profile.php?id= (optional auth) into profileDetails. A 404 (no
   * such member, deleted, or not visible) also removes a stored copy, so a
   * gone profile does not live on offline.
   */
  async loadProfile(id: number): Promise<Result<{ id: number }>> {
    const requestedAt = this.deps.now()
    const res = await fenced(
      this.db,
      () => request('profile', { query: { id } }),
      async ({ profile, liked, liked_me }) => {
        await this.db.profileDetails.put({
          id: profile.id,
          detail: profile,
          likedMe: liked_me,
          fetchedAt: Date.now(),
        })
        // Null for a guest: nothing to learn about their likes.
        if (liked !== null) await this.likes.learn(profile.id, liked, requestedAt)
        return { id: profile.id }
      },
    )
    if (!res.ok && res.error.status === 404) await this.db.profileDetails.delete(id)
    return res
  }

  /** GET /api/chat.php?profile= → the conversation id (spec §7); 403 re-fetches the user. */
  async startChat(profile: number): Promise<Result<{ id: number }>> {
    const res = await request('chatStart', { query: { profile } })
    if (!res.ok) await this.deps.sessionGone(res.error)
    return res
  }

  /** GET /api/xcams/search.php with the grid's gender and ages, stored under camsKey. */
  async syncCams(filters: CamFilters): Promise<Result<{ key: string }>> {
    const key = camsKey(filters)
    return fenced(
      this.db,
      () => request('cams', { query: { ...filters } }),
      async ({ cams }) => {
        await this.db.cams.put({ key, cams, fetchedAt: Date.now() })
        return { key }
      },
    )
  }
}
