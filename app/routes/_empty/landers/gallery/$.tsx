import { createFileRoute } from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import { GalleryLander } from '../../../../features/landers/pages/GalleryLander.tsx'
import { requireSlug } from '../../../../features/landers/slug-route.ts'

/**
 * Spec §2: /landers/gallery/{slug...} in the empty layout; the first segment is
 * the localized slug. The bare path (matched here too) goes to the slug;
 * ToSlug reads the stored settings (Dexie), kept out of the lander's first load.
 */
const ToSlug = lazy(() =>
  import('../../../../features/landers/ToSlug.tsx').then((x) => ({ default: x.ToSlug })),
)

export const Route = createFileRoute('/_empty/landers/gallery/$')({
  beforeLoad: async ({ params }) => {
    const slug = params._splat?.split('/')[0] ?? ''
    if (slug !== '') await requireSlug((s) => s.parseSlug('gallery', slug) !== null)
  },
  component: function Page() {
    const { _splat } = Route.useParams()
    return _splat ? (
      <GalleryLander />
    ) : (
      <Suspense>
        <ToSlug base="/landers/gallery" page="gallery" />
      </Suspense>
    )
  },
})
