import { createFileRoute } from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import { IconsLander } from '../../../../features/landers/pages/IconsLander.tsx'
import { requireSlug } from '../../../../features/landers/slug-route.ts'

/**
 * Spec §2: /landers/iconslanding/{slug...} in the empty layout; the first segment is
 * the localized slug. The bare path (matched here too) goes to the slug;
 * ToSlug reads the stored settings (Dexie), kept out of the lander's first load.
 */
const ToSlug = lazy(() =>
  import('../../../../features/landers/ToSlug.tsx').then((x) => ({ default: x.ToSlug })),
)

export const Route = createFileRoute('/_empty/landers/iconslanding/$')({
  beforeLoad: async ({ params }) => {
    const slug = params._splat?.split('/')[0] ?? ''
    if (slug !== '') await requireSlug((s) => s.parseSlug('iconslanding', slug) !== null)
  },
  component: function Page() {
    const { _splat } = Route.useParams()
    return _splat ? (
      <IconsLander />
    ) : (
      <Suspense>
        <ToSlug base="/landers/iconslanding" page="iconslanding" />
      </Suspense>
    )
  },
})
