import { Crown, Flame, Flower2, Gem, Heart, type LucideIcon, Rainbow, Sparkles } from 'lucide-react'
import type { ReactNode } from 'react'
import { m } from '../../messages/paraglide/messages.js'
import { useLook } from './site.ts'

/** Each niche's illustration (lucide, nothing explicit) and copy (spec §1 niche 1-7). */
const NICHES: Record<number, { icon: LucideIcon; title: () => string; tagline: () => string }> = {
  1: { icon: Heart, title: m.niche_1_title, tagline: m.niche_1_tagline },
  2: { icon: Flower2, title: m.niche_2_title, tagline: m.niche_2_tagline },
  3: { icon: Flame, title: m.niche_3_title, tagline: m.niche_3_tagline },
  4: { icon: Sparkles, title: m.niche_4_title, tagline: m.niche_4_tagline },
  5: { icon: Gem, title: m.niche_5_title, tagline: m.niche_5_tagline },
  6: { icon: Crown, title: m.niche_6_title, tagline: m.niche_6_tagline },
  7: { icon: Rainbow, title: m.niche_7_title, tagline: m.niche_7_tagline },
}

export const nicheOf = (niche: number) => NICHES[niche] ?? NICHES[1]!

/** The niche's headline and tagline for the home page, in the visitor's language. */
export function nicheCopy(niche: number) {
  const n = nicheOf(niche)
  return { title: n.title(), tagline: n.tagline() }
}

/**
 * The home page's hero: the niche's gradient, illustration and copy in the
 * current template's type; `children` are the calls to action.
 */
export function NicheHero({ children, className }: { children?: ReactNode; className?: string }) {
  const { niche } = useLook()
  const { icon: Icon, title, tagline } = nicheOf(niche)
  return (
    <section className={className ? `hero ${className}` : 'hero'} aria-labelledby="hero-title">
      <div className="hero__art" aria-hidden="true">
        <Icon className="hero__icon" strokeWidth={1.5} />
      </div>
      <div className="hero__text">
        <h1 id="hero-title">{title()}</h1>
        <p className="hero__tagline">{tagline()}</p>
        {children}
      </div>
    </section>
  )
}
