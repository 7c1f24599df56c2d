import { Star } from 'lucide-react'
import type { ReactNode } from 'react'
import type { Profile } from '../../api/contract/index.ts'
import { m } from '../../messages/paraglide/messages.js'
import { AppLink } from './AppLink.tsx'
import { mediaUrl } from './media.ts'
import { OnlineDot } from './OnlineDot.tsx'
import { Photo } from './Photo.tsx'
import { VerifiedMark } from './VerifiedMark.tsx'

/**
 * A member in the grid (spec §2), photo first: a large portrait photo with
 * the name, age and city over its foot (like/unlike and chat below it:
 * MemberTile). Photo and name lead to the profile page; the photo link is hidden
 * from assistive tech and the tab order, as the name link says the same.
 */
export function MemberTileBase({
  profile,
  fictionalIcon = true,
  loading = 'lazy',
  children,
}: {
  profile: Profile
  fictionalIcon?: boolean
  /** 'eager' for a first row in view at load; the rest load when near the view. */
  loading?: 'eager' | 'lazy'
  /** Below the name and place: a member's like and chat (MemberTile). */
  children?: ReactNode
}) {
  const titleId = `member-${profile.id}-name`
  const href = `/members/${profile.id}`
  return (
    <li className="tile">
      <article aria-labelledby={titleId}>
        <div className="tile__media">
          <AppLink href={href} tabIndex={-1} aria-hidden="true">
            {profile.main_image ? (
              <Photo
                className="tile__photo"
                src={mediaUrl(profile.main_image.thumb_filename)}
                alt={m.tile_photo_alt({ name: profile.name })}
                loading={loading}
                width={240}
                height={320}
              />
            ) : (
              <div className="tile__photo tile__photo--none" />
            )}
          </AppLink>
          {/* Name, age and place over the photo's foot, on a dark gradient. */}
          <div className="tile__caption">
            <h2 className="tile__name" id={titleId}>
              <AppLink href={href} title={m.tile_open_profile({ name: profile.name })}>
                {profile.name}
              </AppLink>
              {profile.fictional && fictionalIcon && (
                <span className="tile__fictional" title={m.tile_fictional()}>
                  <Star className="icon" fill="currentColor" aria-hidden="true" />
                  <span className="visually-hidden">{m.tile_fictional()}</span>
                </span>
              )}
              <VerifiedMark verified={profile.verified} />
              <OnlineDot lastActive={profile.last_active} />
            </h2>
            <p className="tile__meta">
              {m.tile_age({ age: profile.age })}
              {profile.city ? ` · ${profile.city}` : ''}
            </p>
          </div>
        </div>
        {children}
      </article>
    </li>
  )
}
