import { Link } from '@tanstack/react-router'
import { useEffect } from 'react'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { useVisitors } from '../../../../../data/useLive.ts'
import { worker } from '../../../../../data/worker.ts'
import { formatWhen } from '../../../../../ui/format.ts'
import { mediaUrl } from '../../../../../ui/media.ts'
import { Photo } from '../../../../../ui/Photo.tsx'

/** The new visits beside the likes tabs (docs/live.md). */
export function VisitorsTabCount() {
  const data = useVisitors()
  return data && data.new_count > 0 ? (
    <span className="badge">{m.likes_new_count({ count: data.new_count })}</span>
  ) : null
}

/**
 * /likes/visitors: who opened the member's profile, newest first, the new
 * ones marked; from the store, so the list seen last shows offline. Looking
 * at it makes them seen (after this render still marks them new).
 */
export function VisitorsList() {
  const data = useVisitors()
  const hasNew = (data?.new_count ?? 0) > 0
  useEffect(() => {
    if (hasNew) void worker().markVisitorsSeen()
  }, [hasNew])
  if (data === undefined) return <p>{m.loading()}</p>
  if (data.visitors.length === 0) return <p>{m.visitors_empty()}</p>
  return (
    <ul className="likes-list" aria-label={m.likes_visitors()}>
      {data.visitors.map(({ profile, visited_at, is_new }) => (
        <li
          key={`${profile.id}-${visited_at}`}
          className={`likes-list__item${is_new ? ' likes-list__item--new' : ''}`}
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
              to="/members/$memberId"
              params={{ memberId: String(profile.id) }}
            >
              {profile.name}
            </Link>
            {is_new && <span className="badge badge--new">{m.likes_new()}</span>}
            <span className="likes-list__meta">
              {m.tile_age({ age: profile.age })}
              {profile.city ? ` · ${profile.city}` : ''} ·{' '}
              <time dateTime={visited_at}>
                {m.visitors_visited({ when: formatWhen(visited_at) })}
              </time>
            </span>
          </div>
        </li>
      ))}
    </ul>
  )
}
