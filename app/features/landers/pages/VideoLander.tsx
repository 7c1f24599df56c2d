import type { LanderMember } from '../../../../api/contract/index.ts'
import { m } from '../../../../messages/paraglide/messages.js'
import { LanderShell, MemberPhoto, useTicker } from '../LanderShell.tsx'

/** A looping, video-like slideshow of members near the visitor. */
export function VideoLander() {
  return (
    <LanderShell lander="video" title={m.traffic_video_title()} lead={m.traffic_video_lead()} dark>
      {(members) => <Slideshow members={members.slice(0, 12)} />}
    </LanderShell>
  )
}

function Slideshow({ members }: { members: LanderMember[] }) {
  const at = useTicker(members.length, 3000)
  return (
    <section
      className="lander-video"
      aria-roledescription="slideshow"
      aria-label={m.traffic_video_title()}
    >
      <div className="lander-video__screen">
        {members.map((mb, k) => (
          <MemberPhoto
            key={mb.id}
            member={mb}
            className={k === at ? 'is-on' : ''}
            caption={k === at}
            eager={k < 2}
          />
        ))}
        <span className="lander-video__live">● {m.traffic_live()}</span>
        <div className="lander-video__bar">
          <span key={at} />
        </div>
      </div>
    </section>
  )
}
