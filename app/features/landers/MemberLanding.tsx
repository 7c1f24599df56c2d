import { useEffect } from 'react'
import { m } from '../../../messages/paraglide/messages.js'
import { sendLanderVisit } from '../../data/landerVisit.ts'
import { useSession } from '../../data/session.ts'
import { useLanderMembers } from '../../data/useLanderMembers.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { noteLander } from '../tracking/tracking.ts'
import { MemberPhoto, Members, SignupCta } from './LanderShell.tsx'
import './landers.css'

/**
 * A member landing page (spec §2 /members/{id}/signup, /landing, /landing2,
 * /landing3): "Chat with Anna, 34, from Utrecht" and sign-up. Open to guests:
 * it is where an ad for one member leads, so it must convert a visitor. A
 * deleted or unknown member still gives a page: similar members near the
 * visitor, and the same sign-up.
 */
export function MemberLanding({ memberId, variant }: { memberId: number; variant: string }) {
  useEffect(() => {
    const lander = `member-${variant}`
    sendLanderVisit(lander, noteLander(lander))
  }, [variant])
  // Until the stored member is known (the landers' light entry renders at
  // once), no sign-up offer: a member would see it flash.
  const { user, known } = useSession()
  const guest = known && !user
  const data = useLanderMembers(memberId)
  const member = data.state === 'ready' ? data.value.member : null
  return (
    <main
      className={`lander lander--member lander--${variant}${variant === 'landing3' ? ' lander--dark' : ''}`}
    >
      <p className="lander__brand">{m.app_name()}</p>
      {data.state === 'ready' && member && (
        <section className="lander-member">
          <MemberPhoto member={member} caption={false} eager />
          <div>
            <h1>
              {m.traffic_member_title({
                name: member.name,
                age: member.age,
                city: member.city ?? member.country,
              })}
            </h1>
            <p className="lander__lead">{m.traffic_member_lead({ name: member.name })}</p>
            {user ? (
              <AppLink className="button lander__button" href={`/members/${member.id}/chat`}>
                {m.traffic_write({ name: member.name })}
              </AppLink>
            ) : (
              guest && <SignupCta label={m.traffic_write({ name: member.name })} />
            )}
          </div>
        </section>
      )}
      {data.state === 'ready' && !member && (
        <header className="lander__head">
          <h1>{m.traffic_member_gone()}</h1>
          {guest && <SignupCta />}
        </header>
      )}
      <h2>{m.traffic_similar()}</h2>
      <Members data={data}>
        {(members) => (
          <ul className="lander-map__list">
            {members.slice(0, 8).map((mb) => (
              <li key={mb.id}>
                <MemberPhoto member={mb} />
              </li>
            ))}
          </ul>
        )}
      </Members>
      {guest && <SignupCta />}
    </main>
  )
}
