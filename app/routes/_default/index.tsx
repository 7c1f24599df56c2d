import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import type { Profile } from '../../../api/contract/index.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { useSession } from '../../data/session.ts'
import { useHomeSearch } from '../../data/useMembers.ts'
import { useSettings } from '../../data/useSettings.ts'
import { fictionalIconOf, searchVisible } from '../../data/view.ts'
import { worker } from '../../data/worker.ts'
import { SignupStart } from '../../features/account/forms/SignupStart.tsx'
import { useWorker } from '../../features/account/forms/use-worker.ts'
import { captureNetwork } from '../../features/tracking/tracking.ts'
import { NicheHero } from '../../theme/NicheHero.tsx'
import { MemberTile } from '../../ui/MemberTile.tsx'

/**
 * Home (optional auth). Spec §6: it shows search when search is visible; a
 * guest where it is not sees a curated set of members (GET /api/showcase.php).
 * A guest also gets sign-up step 0 on the page and how the site works.
 */
export const Route = createFileRoute('/_default/')({ component: Home })

function Home() {
  const { user } = useSession()
  const settings = useSettings()
  const [network] = useState(captureNetwork)
  const visible = searchVisible(user !== null, settings, network !== null)
  return (
    <main className="page home">
      <div className="home__hero">
        <NicheHero className="home__intro">
          {user && (
            <p className="home__ctas">
              <Link className="button" to="/members">
                {m.home_cta_members()}
              </Link>
            </p>
          )}
        </NicheHero>
        {!user && <SignupStart network={network} />}
      </div>
      {visible ? (
        <HomeSearch
          member={user !== null}
          fictionalIcon={fictionalIconOf(settings)}
          trafficsource={network?.network}
        />
      ) : (
        !user && settings && <Showcase fictionalIcon={fictionalIconOf(settings)} />
      )}
      {!user && <HowItWorks />}
    </main>
  )
}

function MemberGrid({
  profiles,
  liked,
  fictionalIcon,
  member,
}: {
  profiles: Profile[]
  liked: Set<number>
  fictionalIcon: boolean
  member: boolean
}) {
  return (
    <ul className="grid" aria-label={m.members_title()}>
      {profiles.map((p) => (
        <MemberTile
          key={p.id}
          profile={p}
          liked={liked.has(p.id)}
          fictionalIcon={fictionalIcon}
          actions={member}
        />
      ))}
    </ul>
  )
}

const NONE = new Set<number>()

/** Where guests may not search: a curated set of the site's members. */
function Showcase({ fictionalIcon }: { fictionalIcon: boolean }) {
  const data = useWorker(() => worker().showcase())
  if (!data || data.profiles.length === 0) return null
  return (
    <section aria-labelledby="home-showcase-title">
      <h2 id="home-showcase-title">{m.home_showcase_title()}</h2>
      <MemberGrid
        profiles={data.profiles}
        liked={NONE}
        fictionalIcon={fictionalIcon}
        member={false}
      />
      <p className="home__more">
        <Link className="button" to="/signup">
          {m.home_cta_signup_more()}
        </Link>
      </p>
    </section>
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
      <MemberGrid
        profiles={data.profiles}
        liked={data.liked}
        fictionalIcon={fictionalIcon}
        member={member}
      />
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

const STEPS = [
  { title: m.home_how_1_title, body: m.home_how_1_body },
  { title: m.home_how_2_title, body: m.home_how_2_body },
  { title: m.home_how_3_title, body: m.home_how_3_body },
]

function HowItWorks() {
  return (
    <section className="home__how" aria-labelledby="home-how-title">
      <h2 id="home-how-title">{m.home_how_title()}</h2>
      <ol>
        {STEPS.map((s) => (
          <li key={s.title()}>
            <h3>{s.title()}</h3>
            <p>{s.body()}</p>
          </li>
        ))}
      </ol>
    </section>
  )
}
