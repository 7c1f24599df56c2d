import { type ComponentType, useState } from 'react'
import type { Profile } from '../../../api/contract/index.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { pageSeed } from '../../data/page-seed.ts'
import { useSession } from '../../data/session.ts'
import { useHomeSearch } from '../../data/useMembers.ts'
import { usePackages } from '../../data/usePayments.ts'
import { useSettings } from '../../data/useSettings.ts'
import { fictionalIconOf, searchVisible } from '../../data/view.ts'
import { worker } from '../../data/worker.ts'
import { NicheHero, nicheOf } from '../../theme/NicheHero.tsx'
import { useLook } from '../../theme/site.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import type { TileProps } from '../../ui/MemberTile.tsx'
import { MemberTileBase } from '../../ui/MemberTileBase.tsx'
import { mediaUrl } from '../../ui/media.ts'
import { SignupStart } from '../account/forms/SignupStart.tsx'
import { useWorker } from '../account/forms/use-worker.ts'
import { MessagePrice } from '../credits/MessagePrice.tsx'
import { bestValue, messageMoneyText } from '../credits/money.ts'
import { captureNetwork } from '../tracking/tracking.ts'
import { WORKER_WHEN_SEEN } from './settled.ts'

/**
 * Home (optional auth). Spec §6: it shows search when search is visible; a
 * guest where it is not sees a curated set of members (GET /api/showcase.php).
 * A guest also gets sign-up step 0 on the page and how the site works.
 * Shared by the app's route and a guest's first load (the light entry,
 * app/lander.tsx): no router here. `Tile` is a member's tile with like and
 * chat (the app's route passes it; a guest's first load has no use for it).
 */
export function HomePage({ Tile }: { Tile?: ComponentType<TileProps> }) {
  const { user } = useSession()
  const settings = useSettings()
  const [network] = useState(captureNetwork)
  const visible = searchVisible(user !== null, settings, network !== null)
  return (
    <main className="page home">
      {user ? (
        <div className="home__hero">
          <NicheHero className="home__intro">
            <MessagePrice className="home__price" />
            <p className="home__ctas">
              <AppLink className="button" href="/members">
                {m.home_cta_members()}
              </AppLink>
            </p>
          </NicheHero>
        </div>
      ) : (
        <>
          <GuestHero />
          <div className="home__hero">
            <SignupStart network={network} />
          </div>
        </>
      )}
      {/* The member photos come from the worker: once their place is in view
          (a wide screen's first view), a prerendered page starts it at once
          (app/features/site/settled.ts). */}
      <div {...{ [WORKER_WHEN_SEEN]: '' }} />
      {visible ? (
        <HomeSearch
          member={user !== null}
          Tile={user ? Tile : undefined}
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

/** How many member photos the guest's first screen shows. */
const HERO_PHOTOS = 6

/**
 * A guest's first screen sells (docs/sites-and-templates.md "Photo first"):
 * photos of the niche's members (the public showcase: approved photos
 * only), the niche's promise in a line, what it costs (free to join, the
 * price of a message) and one sign-up button; the form follows below. The
 * photos' place is kept from the first paint, so nothing jumps when they come.
 */
function GuestHero() {
  const { niche } = useLook()
  const { title, tagline } = nicheOf(niche)
  const settings = useSettings()
  const shown = useShowcase()
  const packages = usePackages(
    settings?.geoip_selected_country ?? settings?.geoip_country ?? undefined,
  )
  // The "from" price: the best package on offer (the one rule, credit-value.ts).
  const best = packages ? bestValue(packages) : null
  const photos = (shown ?? []).filter((p) => p.main_image).slice(0, HERO_PHOTOS)
  return (
    <section className="guest-hero" aria-labelledby="hero-title">
      <div className="guest-hero__pitch">
        <h1 id="hero-title" className="guest-hero__title">
          {title()}
        </h1>
        <p className="guest-hero__value">{tagline()}</p>
        {/* data-packages once the packages answered (the price follows the photos the server painted). */}
        <p className="guest-hero__price" data-packages={packages ? '' : undefined}>
          {m.home_free()}
          {packages && best && (
            <>
              {' · '}
              {m.home_message_price({ price: messageMoneyText(best, packages.message_cost) })}
            </>
          )}
        </p>
        <a className="button guest-hero__cta" href="#home-signup-title">
          {m.traffic_cta_signup()}
        </a>
      </div>
      <ul className="guest-hero__photos" aria-label={m.home_photos_label()}>
        {/* Empty cells hold the place while the photos load; a site with fewer keeps only its own. */}
        {Array.from({ length: shown ? photos.length : HERO_PHOTOS }, (_, i) => {
          const p = photos[i]
          return (
            <li key={p?.id ?? `empty-${i}`}>
              {p?.main_image && (
                <img
                  src={mediaUrl(p.main_image.thumb_filename)}
                  alt={m.tile_photo_alt({ name: p.name })}
                  width={160}
                  height={200}
                  loading="eager"
                />
              )}
            </li>
          )
        })}
      </ul>
    </section>
  )
}

function MemberGrid({
  profiles,
  liked,
  fictionalIcon,
  Tile,
  eager = 0,
}: {
  profiles: Profile[]
  liked: Set<number>
  fictionalIcon: boolean
  /**
   * How many tiles load their photo at once (the first row); the rest when
   * near the view. The showcase's first six are the hero's photos, fetched
   * already: eager costs them nothing.
   */
  eager?: number
  /** A member's tiles (with like and chat); a guest's have none. */
  Tile?: ComponentType<TileProps> | undefined
}) {
  return (
    <ul className="grid" aria-label={m.members_title()}>
      {profiles.map((p, i) =>
        Tile ? (
          <Tile key={p.id} profile={p} liked={liked.has(p.id)} fictionalIcon={fictionalIcon} />
        ) : (
          <MemberTileBase
            key={p.id}
            profile={p}
            fictionalIcon={fictionalIcon}
            loading={i < eager ? 'eager' : 'lazy'}
          />
        ),
      )}
    </ul>
  )
}

const NONE = new Set<number>()

/**
 * The guest showcase (GET /api/showcase.php): the sync worker's answer, and
 * until it answers (or when it fails) what the server rendered a guest's home
 * with (page-seed.ts), so the photos are in the first paint and hydration
 * draws the same. Undefined on a page without the seed until the worker answers.
 */
function useShowcase(): Profile[] | undefined {
  const data = useWorker(() => worker().showcase())
  return data?.profiles ?? pageSeed()?.showcase
}

/** Where guests may not search: a curated set of the site's members. */
function Showcase({ fictionalIcon }: { fictionalIcon: boolean }) {
  const profiles = useShowcase()
  if (!profiles || profiles.length === 0) return null
  return (
    <section aria-labelledby="home-showcase-title">
      <h2 id="home-showcase-title">{m.home_showcase_title()}</h2>
      <MemberGrid
        profiles={profiles}
        liked={NONE}
        fictionalIcon={fictionalIcon}
        eager={HERO_PHOTOS}
      />
      <p className="home__more">
        <AppLink className="button" href="/signup">
          {m.home_cta_signup_more()}
        </AppLink>
      </p>
    </section>
  )
}

/** Page 1 of the default search (a member's saved one), from the store. */
function HomeSearch({
  member,
  Tile,
  fictionalIcon,
  trafficsource,
}: {
  member: boolean
  Tile: ComponentType<TileProps> | undefined
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
        Tile={Tile}
      />
      <p className="home__more">
        {member ? (
          <AppLink className="button" href="/members">
            {m.home_cta_members()}
          </AppLink>
        ) : (
          <AppLink className="button" href="/signup">
            {m.home_cta_signup_more()}
          </AppLink>
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
