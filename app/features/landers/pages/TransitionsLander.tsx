import { m } from '../../../../messages/paraglide/messages.js'
import { LanderShell, MemberPhoto, useTicker } from '../LanderShell.tsx'

const EFFECTS = ['fade', 'slide', 'zoom', 'turn'] as const

/** One member after another, each arriving with another transition, thumbnails below. */
export function TransitionsLander() {
  return (
    <LanderShell
      lander="transitionsvideolanding"
      title={m.traffic_transitions_title()}
      lead={m.traffic_transitions_lead()}
      dark
    >
      {(all) => <Stage members={all.slice(0, 10)} />}
    </LanderShell>
  )
}

function Stage({ members }: { members: Parameters<typeof MemberPhoto>[0]['member'][] }) {
  const at = useTicker(members.length, 3500)
  const current = members[at]
  return (
    <section className="lander-stage">
      {current && (
        <div key={current.id} className={`lander-stage__slide fx-${EFFECTS[at % EFFECTS.length]}`}>
          <MemberPhoto member={current} eager />
        </div>
      )}
      <ol className="lander-stage__strip" aria-hidden="true">
        {members.map((mb, k) => (
          <li key={mb.id} className={k === at ? 'is-on' : ''}>
            <MemberPhoto member={mb} caption={false} />
          </li>
        ))}
      </ol>
    </section>
  )
}
