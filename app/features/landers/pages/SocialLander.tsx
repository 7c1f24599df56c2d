import { Heart } from 'lucide-react'
import { m } from '../../../../messages/paraglide/messages.js'
import { AppLink } from '../../../ui/AppLink.tsx'
import { mediaUrl } from '../../../ui/media.ts'
import { LanderShell, MemberPhoto } from '../LanderShell.tsx'

/** A social-network style feed of members' photos; liking or writing leads to sign-up. */
export function SocialLander() {
  return (
    <LanderShell
      lander="socialnetwork"
      title={m.traffic_social_title()}
      lead={m.traffic_social_lead()}
    >
      {(members) => (
        <ol className="lander-feed">
          {members.slice(0, 10).map((mb) => (
            <li key={mb.id} className="lander-feed__post">
              <header>
                <img src={mediaUrl(mb.thumb)} alt="" className="lander-feed__avatar" />
                <p>
                  <strong>{mb.name}</strong>, {mb.age}
                  <br />
                  <span className="lander__small">
                    {m.traffic_social_post({ city: mb.city ?? mb.country })}
                  </span>
                </p>
              </header>
              <MemberPhoto member={mb} caption={false} />
              <p className="lander-feed__actions">
                <AppLink href="/signup" className="button button--secondary">
                  <Heart className="icon" aria-hidden="true" /> {m.traffic_like()}
                </AppLink>
                <AppLink href="/signup" className="button">
                  {m.traffic_write({ name: mb.name })}
                </AppLink>
              </p>
            </li>
          ))}
        </ol>
      )}
    </LanderShell>
  )
}
