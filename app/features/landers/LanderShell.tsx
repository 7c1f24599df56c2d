import { Star } from 'lucide-react'
import { type ReactNode, useEffect, useState } from 'react'
import type { LanderMember } from '../../../api/contract/index.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { sendLanderVisit } from '../../data/landerVisit.ts'
import { type LanderMembers, useLanderMembers } from '../../data/useLanderMembers.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { mediaUrl } from '../../ui/media.ts'
import { noteLander } from '../tracking/tracking.ts'
import './landers.css'

/**
 * A lander: a sales page for visitors from ads and affiliates, built from the
 * site's real members (GET /api/lander_members.php), ending in sign-up. The
 * tracking record stays in its cookie; the lander is noted in it so sign-ups
 * count per lander, and the visit is counted for the traffic report.
 */
export function LanderShell({
  lander,
  title,
  lead,
  dark = false,
  children,
}: {
  lander: string
  title: string
  lead: string
  dark?: boolean
  children: (members: LanderMember[]) => ReactNode
}) {
  useEffect(() => sendLanderVisit(lander, noteLander(lander)), [lander])
  const data = useLanderMembers()
  return (
    <main className={`lander lander--${lander}${dark ? ' lander--dark' : ''}`}>
      <header className="lander__head">
        <p className="lander__brand">{m.app_name()}</p>
        <h1>{title}</h1>
        <p className="lander__lead">{lead}</p>
        <SignupCta />
      </header>
      <Members data={data}>{children}</Members>
      <footer className="lander__foot">
        <SignupCta />
        <p className="lander__small">
          <AppLink href="/pages/terms">{m.traffic_terms_link()}</AppLink> ·{' '}
          <AppLink href="/pages/privacy">{m.traffic_privacy_link()}</AppLink> ·{' '}
          <AppLink href="/login">{m.nav_login()}</AppLink>
        </p>
      </footer>
    </main>
  )
}

export function Members({
  data,
  children,
}: {
  data: LanderMembers
  children: (members: LanderMember[]) => ReactNode
}) {
  if (data.state === 'loading') return <p className="lander__status" aria-busy="true" />
  if (data.state === 'failed' || data.value.members.length === 0)
    return <p className="lander__status">{m.traffic_no_members()}</p>
  return <>{children(data.value.members)}</>
}

/** Every lander ends in the sign-up flow (spec §2); the tracking record rides in its cookie. */
export function SignupCta({ label }: { label?: string }) {
  return (
    <p className="lander__cta">
      <AppLink className="button lander__button" href="/signup">
        {label ?? m.traffic_cta_signup()}
      </AppLink>
      <span className="lander__small">{m.traffic_cta_note()}</span>
    </p>
  )
}

/** A member's photo with name, age and city; fictional profiles are marked (spec §3 fictional_icon). */
export function MemberPhoto({
  member,
  className = '',
  caption = true,
  eager = false,
}: {
  member: LanderMember
  className?: string
  caption?: boolean
  eager?: boolean
}) {
  return (
    <figure className={`lander-photo ${className}`}>
      <img
        src={mediaUrl(member.thumb)}
        alt={m.tile_photo_alt({ name: member.name })}
        loading={eager ? 'eager' : 'lazy'}
      />
      {caption && (
        <figcaption>
          <strong>{member.name}</strong>, {member.age}
          {member.city ? ` · ${member.city}` : ''}
          {member.fictional && (
            <span className="lander-photo__fictional" title={m.tile_fictional()}>
              {' '}
              <Star className="icon" fill="currentColor" aria-hidden="true" />
              <span className="visually-hidden">{m.tile_fictional()}</span>
            </span>
          )}
        </figcaption>
      )}
    </figure>
  )
}

/**
 * Index that advances every `ms` over `count` items (slideshows, transitions).
 * A visitor who asks for less motion gets a still first item (WCAG 2.2.2: no
 * content moving on its own); the page lists the same members anyway.
 */
export function useTicker(count: number, ms: number): number {
  const [i, setI] = useState(0)
  useEffect(() => {
    if (count < 2) return
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return
    const t = setInterval(() => setI((x) => (x + 1) % count), ms)
    return () => clearInterval(t)
  }, [count, ms])
  return count > 0 ? i % count : 0
}
