import { createFileRoute, notFound } from '@tanstack/react-router'
import {
  EMPTY_LAYOUT_LANDERS,
  isLander,
  type Lander,
  parseSlug,
} from '../../../../../api/contract/rules/index.ts'
import { CollageLander } from '../-components/CollageLander.tsx'
import { MapLander } from '../-components/MapLander.tsx'
import { SocialLander } from '../-components/SocialLander.tsx'
import { TransitionsLander } from '../-components/TransitionsLander.tsx'
import { VideoLander } from '../-components/VideoLander.tsx'

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
  beforeLoad: ({ params }) => {
    const { lander, slug } = params
    if (!isLander(lander) || EMPTY_LAYOUT_LANDERS.includes(lander) || !parseSlug(lander, slug))
      throw notFound()
  },
  component: LanderPage,
})

function LanderPage() {
  const { lander } = Route.useParams()
  const Page = isLander(lander) ? PAGES[lander] : undefined
  return Page ? <Page /> : null
}
