import { createFileRoute, notFound } from '@tanstack/react-router'
import { MemberLanding } from '../../../../../features/landers/MemberLanding.tsx'
import { requireSlug } from '../../../../../features/landers/slug-route.ts'
import { parseMemberId } from '../../../../../ui/member-id.ts'

/** Spec §2 /members/{id}/landing2/{slug} in the empty layout, open to guests (docs/landers-and-tracking.md). */
export const Route = createFileRoute('/_empty/members/$memberId/landing2/$slug')({
  beforeLoad: async ({ params }) => {
    if (parseMemberId(params.memberId) === null) throw notFound()
    await requireSlug((s) => s.parseSlug('landing2', params.slug) !== null)
  },
  component: function Page() {
    const { memberId } = Route.useParams()
    return <MemberLanding memberId={Number(memberId)} variant="landing2" />
  },
})
