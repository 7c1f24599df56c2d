import { createFileRoute } from '@tanstack/react-router'
import { isLander, type Lander } from '../../../../../api/contract/rules/slugs.ts'
import { CollageLander } from '../../../../features/landers/pages/CollageLander.tsx'
import { MapLander } from '../../../../features/landers/pages/MapLander.tsx'
import { SocialLander } from '../../../../features/landers/pages/SocialLander.tsx'
import { TransitionsLander } from '../../../../features/landers/pages/TransitionsLander.tsx'
import { VideoLander } from '../../../../features/landers/pages/VideoLander.tsx'
import { requireSlug } from '../../../../features/landers/slug-route.ts'

const PAGES: Partial<Record<Lander, () => React.JSX.Element>> = {
  video: VideoLander,
  maplanding: MapLander,
  socialnetwork: SocialLander,
  collagelanding: CollageLander,
  transitionsvideolanding: TransitionsLander,
}

/**
 * Spec §2: the landers' slug pages in the lander layout. The server already
 * sent a bare path or another language's slug to the right slug (301); an
 * unknown slug is "Page Not Found" here too (when the service worker served
 * the shell without asking the server).
 */
export const Route = createFileRoute('/_lander/landers/$lander/$slug')({
  beforeLoad: ({ params: { lander, slug } }) =>
    requireSlug(
      (s) =>
        s.isLander(lander) &&
        !s.EMPTY_LAYOUT_LANDERS.includes(lander) &&
        s.parseSlug(lander, slug) !== null,
    ),
  component: LanderPage,
})

function LanderPage() {
  const { lander } = Route.useParams()
  const Page = isLander(lander) ? PAGES[lander] : undefined
  return Page ? <Page /> : null
}
