import { createFileRoute } from '@tanstack/react-router'
import { isLander } from '../../../../../api/contract/rules/slugs.ts'
import { requireSlug } from '../../../../features/landers/slug-route.ts'
import { ToSlug } from '../../../../features/landers/ToSlug.tsx'

/** A bare lander path goes to its localized slug (spec §2). */
export const Route = createFileRoute('/_lander/landers/$lander/')({
  beforeLoad: ({ params }) => requireSlug((s) => s.isLander(params.lander)),
  component: function LanderToSlug() {
    const { lander } = Route.useParams()
    return isLander(lander) ? <ToSlug base={`/landers/${lander}`} page={lander} /> : null
  },
})
