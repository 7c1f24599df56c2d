import type { Profile } from '../../../../api/contract/index.ts'
import { m } from '../../../../messages/paraglide/messages.js'
import { mediaUrl } from '../../../media.ts'

export function MemberTile({ profile }: { profile: Profile }) {
  const titleId = `member-${profile.id}-name`
  return (
    <li className="tile">
      <article aria-labelledby={titleId}>
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
          <div className="tile__photo tile__photo--none" aria-hidden="true" />
        )}
        <h2 className="tile__name" id={titleId}>
          {profile.name}
          {profile.fictional && (
            <span className="tile__fictional" title={m.tile_fictional()}>
              <span aria-hidden="true">★</span>
              <span className="visually-hidden">{m.tile_fictional()}</span>
            </span>
          )}
        </h2>
        <p className="tile__meta">
          {m.tile_age({ age: profile.age })}
          {profile.city ? ` · ${profile.city}` : ''}
        </p>
      </article>
    </li>
  )
}
