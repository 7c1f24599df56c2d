import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import { m } from '../../messages/paraglide/messages.js'
import { useSession } from '../data/session.ts'
import { useHomeSearch } from '../data/useMembers.ts'
import { useSettings } from '../data/useSettings.ts'
import { fictionalIconOf, searchVisible } from '../data/view.ts'
import { captureNetwork } from '../features/account/tracking.ts'
import { MemberTile } from '../ui/MemberTile.tsx'

/** Home (optional auth). Spec §6: it shows search when search is visible. */
export const Route = createFileRoute('/')({ component: Home })

function Home() {
  const { user } = useSession()
  const settings = useSettings()
  const [network] = useState(captureNetwork)
  const visible = searchVisible(user !== null, settings, network !== null)
  return (
    <main className="page home">
      <div className="page--narrow home__intro">
        <h1>{m.home_title()}</h1>
        <p>{m.home_intro()}</p>
        {!user && (
          <p className="home__ctas">
            <Link className="button" to="/signup">
              {m.nav_signup()}
            </Link>
            <Link to="/login">{m.nav_login()}</Link>
          </p>
        )}
      </div>
      {visible && (
        <HomeSearch
          member={user !== null}
          fictionalIcon={fictionalIconOf(settings)}
          trafficsource={network?.network}
        />
      )}
    </main>
  )
}

/** Page 1 of the default search (a member's saved one), from the store. */
function HomeSearch({
  member,
  fictionalIcon,
  trafficsource,
}: {
  member: boolean
  fictionalIcon: boolean
  trafficsource: string | undefined
}) {
  const data = useHomeSearch(trafficsource)
  if (!data || data.profiles.length === 0) return null
  return (
    <section aria-labelledby="home-search-title">
      <h2 id="home-search-title">{m.home_search_title()}</h2>
      <ul className="grid" aria-label={m.members_title()}>
        {data.profiles.map((p) => (
          <MemberTile
            key={p.id}
            profile={p}
            liked={data.liked.has(p.id)}
            fictionalIcon={fictionalIcon}
            actions={member}
          />
        ))}
      </ul>
      <p className="home__more">
        {member ? (
          <Link className="button" to="/members">
            {m.home_cta_members()}
          </Link>
        ) : (
          <Link className="button" to="/signup">
            {m.home_cta_signup_more()}
          </Link>
        )}
      </p>
    </section>
  )
}
