import type { LanderMember } from '../../../../api/contract/index.ts'
import { m } from '../../../../messages/paraglide/messages.js'
import { mediaUrl } from '../../../ui/media.ts'
import { LanderShell, MemberPhoto } from '../LanderShell.tsx'

const GOLDEN_ANGLE = 2.39996

/**
 * Members around the visitor on a drawn map (no map tiles from elsewhere:
 * the visitor's position is not sent anywhere). Pins spread by a sunflower
 * pattern: the picture says "near you", the list names their cities.
 */
export function MapLander() {
  return (
    <LanderShell lander="maplanding" title={m.traffic_map_title()} lead={m.traffic_map_lead()}>
      {(members) => <MemberMap members={members.slice(0, 14)} />}
    </LanderShell>
  )
}

function MemberMap({ members }: { members: LanderMember[] }) {
  return (
    <section className="lander-map">
      <div className="lander-map__map" role="img" aria-label={m.traffic_map_title()}>
        <svg viewBox="0 0 100 100" aria-hidden="true" preserveAspectRatio="none">
          <path d="M0 30 Q30 25 50 40 T100 35 M0 70 Q40 60 60 75 T100 65 M35 0 Q30 50 45 100 M70 0 Q75 40 65 100" />
          {[14, 28, 42].map((r) => (
            <circle key={r} cx="50" cy="50" r={r} />
          ))}
        </svg>
        <span className="lander-map__you" style={{ left: '50%', top: '50%' }}>
          {m.traffic_map_you()}
        </span>
        {members.map((mb, i) => {
          const r = 12 + 34 * Math.sqrt((i + 1) / members.length)
          const a = i * GOLDEN_ANGLE
          return (
            <img
              key={mb.id}
              className="lander-map__pin"
              src={mediaUrl(mb.thumb)}
              alt=""
              style={{ left: `${50 + r * Math.cos(a)}%`, top: `${50 + r * Math.sin(a)}%` }}
            />
          )
        })}
      </div>
      <ul className="lander-map__list">
        {members.map((mb) => (
          <li key={mb.id}>
            <MemberPhoto member={mb} />
          </li>
        ))}
      </ul>
    </section>
  )
}
