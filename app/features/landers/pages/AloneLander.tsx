import { m } from '../../../../messages/paraglide/messages.js'
import { AppLink } from '../../../ui/AppLink.tsx'
import { LanderShell, MemberPhoto } from '../LanderShell.tsx'

/** "Alone tonight?": an evening mood, members near the visitor, a hello that starts with sign-up. */
export function AloneLander() {
  return (
    <LanderShell
      lander="alonetonight"
      title={m.traffic_alone_title()}
      lead={m.traffic_alone_lead()}
      dark
    >
      {(members) => (
        <ul className="lander-alone">
          {members.slice(0, 8).map((mb) => (
            <li key={mb.id}>
              <MemberPhoto member={mb} />
              <AppLink href="/signup" className="button">
                {m.traffic_say_hello()}
              </AppLink>
            </li>
          ))}
        </ul>
      )}
    </LanderShell>
  )
}
