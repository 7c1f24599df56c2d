import { m } from '../../../../messages/paraglide/messages.js'
import { LanderShell, MemberPhoto } from '../LanderShell.tsx'

/** A photo collage of the newest active members, tiles of varied size. */
export function CollageLander() {
  return (
    <LanderShell
      lander="collagelanding"
      title={m.traffic_collage_title()}
      lead={m.traffic_collage_lead()}
    >
      {(members) => (
        <div className="lander-collage">
          {members.slice(0, 13).map((mb, i) => (
            <MemberPhoto key={mb.id} member={mb} eager={i < 4} />
          ))}
        </div>
      )}
    </LanderShell>
  )
}
