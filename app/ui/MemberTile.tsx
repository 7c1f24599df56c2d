import { Link } from '@tanstack/react-router'
import { Star } from 'lucide-react'
import type { Profile } from '../../api/contract/index.ts'
import { m } from '../../messages/paraglide/messages.js'
import { ChatButton } from './ChatButton.tsx'
import { LikeButton } from './LikeButton.tsx'
import { mediaUrl } from './media.ts'

/**
 * A member in the grid (spec §2): photo, name, age, city, like/unlike and
 * chat. Photo and name lead to the profile page; the photo link is hidden
 * from assistive tech and the tab order, as the name link says the same.
 */
export function MemberTile({
  profile,
  liked,
  fictionalIcon = true,
  actions = true,
}: {
  profile: Profile
  liked: boolean
  fictionalIcon?: boolean
  /** Like and chat need a member; a guest's grid leaves them out. */
  actions?: boolean
}) {
  const titleId = `member-${profile.id}-name`
  const to = '/members/$memberId'
  const params = { memberId: String(profile.id) }
  return (
    <li className="tile">
      <article aria-labelledby={titleId}>
        <Link to={to} params={params} tabIndex={-1} aria-hidden="true">
          {profile.main_image ? (
            <img
              className="tile__photo"
              src={mediaUrl(profile.main_image.thumb_filename)}
              alt={m.tile_photo_alt({ name: profile.name })}
              loading="lazy"
              width={160}
              height={160}
            />
          ) : (
            <div className="tile__photo tile__photo--none" />
          )}
        </Link>
        <h2 className="tile__name" id={titleId}>
          <Link to={to} params={params} title={m.tile_open_profile({ name: profile.name })}>
            {profile.name}
          </Link>
          {profile.fictional && fictionalIcon && (
            <span className="tile__fictional" title={m.tile_fictional()}>
              <Star className="icon" fill="currentColor" aria-hidden="true" />
              <span className="visually-hidden">{m.tile_fictional()}</span>
            </span>
          )}
        </h2>
        <p className="tile__meta">
          {m.tile_age({ age: profile.age })}
          {profile.city ? ` · ${profile.city}` : ''}
        </p>
        {actions && (
          <div className="tile__actions">
            <LikeButton profile={profile} liked={liked} />
            <ChatButton profile={profile} />
          </div>
        )}
      </article>
    </li>
  )
}
