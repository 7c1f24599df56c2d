import { Link } from '@tanstack/react-router'
import { Heart } from 'lucide-react'
import { useState } from 'react'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { useLikes } from '../../../../../data/useLikes.ts'
import { worker } from '../../../../../data/worker.ts'
import { LikeButton } from '../../../../../ui/LikeButton.tsx'
import { mediaUrl } from '../../../../../ui/media.ts'
import { Photo } from '../../../../../ui/Photo.tsx'
import type { LikesType } from './likes-type.ts'
import { VisitorsList, VisitorsTabCount } from './VisitorsList.tsx'

/**
 * Likes received (new first, spec §4, each opening /likes/m/{id}, which
 * clears its new flag) and likes given, from the store: offline the lists
 * seen last show.
 */
export function LikesPage({ type }: { type: LikesType }) {
  // Opening the page refreshes the lists; the worker also polls them (spec §9).
  const data = useLikes(type === 'visitors' ? 'received' : type)

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
            <>
              {' '}
              <span className="badge">{m.likes_new_count({ count: data.newCount })}</span>
            </>
          )}
        </Link>
        <Link
          to="/likes/$type"
          params={{ type: 'given' }}
          aria-current={type === 'given' ? 'page' : undefined}
        >
          {m.likes_given()}
        </Link>
        <Link
          to="/likes/$type"
          params={{ type: 'visitors' }}
          aria-current={type === 'visitors' ? 'page' : undefined}
        >
          {m.likes_visitors()}
          <VisitorsTabCount />
        </Link>
      </nav>
      {type === 'visitors' && <VisitorsList />}
      {type !== 'visitors' && <LikesLists type={type} data={data} />}
    </main>
  )
}

/** The likes received or given (the lists of spec §4). */
function LikesLists({
  type,
  data,
}: {
  type: 'received' | 'given'
  data: ReturnType<typeof useLikes>
}) {
  const [loading, setLoading] = useState(false)
  async function showMore(loaded: number, pageSize: number) {
    setLoading(true)
    await worker().loadLikesPage(type, Math.floor(loaded / pageSize) + 1)
    setLoading(false)
  }
  return (
    <>
      {data === undefined && <p>{m.loading()}</p>}
      {data && !data.synced && data.entries.length === 0 && <p>{m.likes_not_saved()}</p>}
      {data?.synced && data.entries.length === 0 && <NoLikes type={type} />}
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
                <Photo
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
    </>
  )
}

/** An empty list: what to do to get likes, or to give some. */
function NoLikes({ type }: { type: 'received' | 'given' }) {
  return (
    <div className="empty-state">
      <Heart className="empty-state__icon" aria-hidden="true" />
      <p>{type === 'received' ? m.likes_empty_received() : m.likes_empty_given()}</p>
      {type === 'received' ? (
        <>
          <p>{m.likes_empty_received_hint()}</p>
          <Link to="/profile" className="button">
            {m.likes_empty_profile_action()}
          </Link>
        </>
      ) : (
        <Link to="/members" className="button">
          {m.likes_empty_action()}
        </Link>
      )}
    </div>
  )
}
