import { Coffee, Flame, Heart, MapPin, MessageCircle, Users } from 'lucide-react'
import { useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { AppLink } from '../../../ui/AppLink.tsx'
import { LanderShell, MemberPhoto } from '../LanderShell.tsx'

const CHOICES = [
  { icon: MessageCircle, label: m.traffic_icon_chat },
  { icon: Coffee, label: m.traffic_icon_date },
  { icon: Heart, label: m.traffic_icon_love },
  { icon: Users, label: m.traffic_icon_friends },
  { icon: Flame, label: m.traffic_icon_fun },
  { icon: MapPin, label: m.traffic_icon_nearby },
]

/** An icon grid: the visitor picks what they look for, sees members, and signs up. */
export function IconsLander() {
  const [picked, setPicked] = useState<number | null>(null)
  return (
    <LanderShell
      lander="iconslanding"
      title={m.traffic_icons_title()}
      lead={m.traffic_icons_lead()}
    >
      {(members) => (
        <>
          <ul className="lander-icons">
            {CHOICES.map(({ icon: Icon, label }, i) => (
              <li key={label()}>
                <button type="button" aria-pressed={picked === i} onClick={() => setPicked(i)}>
                  <Icon aria-hidden="true" size={32} />
                  {label()}
                </button>
              </li>
            ))}
          </ul>
          {picked !== null && (
            <section aria-live="polite">
              <h2>{m.traffic_icons_found()}</h2>
              <div className="lander-collage lander-collage--small">
                {members.slice(0, 6).map((mb) => (
                  <MemberPhoto key={mb.id} member={mb} />
                ))}
              </div>
              <AppLink href="/signup" className="button lander__button">
                {m.traffic_cta_signup()}
              </AppLink>
            </section>
          )}
        </>
      )}
    </LanderShell>
  )
}
