import { createFileRoute, notFound } from '@tanstack/react-router'
import { isLander } from '../../../../../api/contract/rules/index.ts'
import { ToSlug } from '../../../../features/landers/ToSlug.tsx'

/** A bare lander path goes to its localized slug (spec §2). */
export const Route = createFileRoute('/_lander/landers/$lander/')({
  beforeLoad: ({ params }) => {
    if (!isLander(params.lander)) throw notFound()
  },
  component: function LanderToSlug() {
    const { lander } = Route.useParams()
    return isLander(lander) ? <ToSlug base={`/landers/${lander}`} page={lander} /> : null
  },
})
