import { Link } from '@tanstack/react-router'
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect, useState } from 'react'
import type { Profile } from '../../../../api/contract/index.ts'
import { m } from '../../../../messages/paraglide/messages.js'
import { syncWorker } from '../../../../sync/client.ts'
import { givenOrder, receivedOrder } from '../../../../sync/likes/reconcile.ts'
import { likesCounts, localDb } from '../../../../sync/store/store.ts'
import { LikeButton } from '../../../ui/LikeButton.tsx'
import { mediaUrl } from '../../../ui/media.ts'
import type { LikesType } from './likes-type.ts'

interface Entry {
  profile: Profile
  isNew: boolean
  liked: boolean
}

/**
 * Likes received (new first, spec §4, each opening /likes/m/{id}, which
 * clears its new flag) and likes given, from the store: offline the lists
 * seen last show.
 */
export function LikesPage({ type }: { type: LikesType }) {
  // Opening the page refreshes the lists; the worker also polls them (spec §9).
  useEffect(() => {
    void syncWorker().syncLikes()
  }, [])

  const data = useLiveQuery(async () => {
    const db = localDb()
    const [likedBy, likes, synced, counts] = await Promise.all([
      db.likedBy.toArray(),
      db.likes.toArray(),
      db.kv.get('likesSyncedAt'),
      db.kv.get('likesCounts'),
    ])
    const likedIds = new Set(likes.filter((l) => l.liked).map((l) => l.id))
    const rows =
      type === 'received'
        ? receivedOrder(likedBy).map((r) => ({ id: r.id, isNew: r.likeNew }))
        : givenOrder(likes).map((r) => ({ id: r.id, isNew: false }))
    const profiles = await db.profiles.bulkGet(rows.map((r) => r.id))
    const entries: Entry[] = rows.flatMap((r, i) => {
      const profile = profiles[i]
      return profile ? [{ profile, isNew: r.isNew, liked: likedIds.has(r.id) }] : []
    })
    const total = likesCounts(counts?.value)
    return {
      entries,
      synced: synced !== undefined,
      newCount: likedBy.filter((r) => r.likeNew).length,
      // Lists are paged (48 a page): more exist than the store holds profiles for.
      more: total !== null && entries.length < (type === 'received' ? total.received : total.given),
      pageSize: total?.pp ?? 1,
    }
  }, [type])

  const [loading, setLoading] = useState(false)
  async function showMore(loaded: number, pageSize: number) {
    setLoading(true)
    await syncWorker().loadLikesPage(type, Math.floor(loaded / pageSize) + 1)
    setLoading(false)
  }

  return (
    <main className="page page--narrow">
      <h1>{m.likes_title()}</h1>
      <nav className="tabs" aria-label={m.likes_tabs_label()}>
        <Link
          to="/likes/$type"
          params={{ type: 'received' }}
          aria-current={type === 'received' ? 'page' : undefined}
        >
          {m.likes_received()}
          {data && data.newCount > 0 && (
            <span className="badge">{m.likes_new_count({ count: data.newCount })}</span>
          )}
        </Link>
        <Link
          to="/likes/$type"
          params={{ type: 'given' }}
          aria-current={type === 'given' ? 'page' : undefined}
        >
          {m.likes_given()}
        </Link>
      </nav>
      {data === undefined && <p>{m.loading()}</p>}
      {data && !data.synced && data.entries.length === 0 && <p>{m.likes_not_saved()}</p>}
      {data?.synced && data.entries.length === 0 && (
        <p>{type === 'received' ? m.likes_empty_received() : m.likes_empty_given()}</p>
      )}
      {data && data.entries.length > 0 && (
        <ul
          className="likes-list"
          aria-label={type === 'received' ? m.likes_received() : m.likes_given()}
        >
          {data.entries.map(({ profile, isNew, liked }) => (
            <li
              key={profile.id}
              className={`likes-list__item${isNew ? ' likes-list__item--new' : ''}`}
            >
              {profile.main_image ? (
                <img
                  className="likes-list__photo"
                  src={mediaUrl(profile.main_image.thumb_filename)}
                  alt=""
                  width={56}
                  height={56}
                />
              ) : (
                <span className="likes-list__photo" aria-hidden="true" />
              )}
              <div className="likes-list__text">
                <Link
                  className="likes-list__name"
                  to={type === 'received' ? '/likes/m/$memberId' : '/members/$memberId'}
                  params={{ memberId: String(profile.id) }}
                >
                  {profile.name}
                </Link>
                {isNew && <span className="badge badge--new">{m.likes_new()}</span>}
                <span className="likes-list__meta">
                  {m.tile_age({ age: profile.age })}
                  {profile.city ? ` · ${profile.city}` : ''}
                </span>
              </div>
              <LikeButton profile={profile} liked={liked} />
            </li>
          ))}
        </ul>
      )}
      {data?.more && (
        <button
          type="button"
          className="button button--secondary"
          disabled={loading}
          onClick={() => void showMore(data.entries.length, data.pageSize)}
        >
          {loading ? m.loading() : m.likes_show_more()}
        </button>
      )}
    </main>
  )
}
