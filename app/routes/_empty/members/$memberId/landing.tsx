import { createFileRoute, notFound } from '@tanstack/react-router'
import { MemberLanding } from '../../../../features/landers/MemberLanding.tsx'
import { parseMemberId } from '../../../../ui/member-id.ts'

/** Spec §2 /members/{id}/landing: a member's sign-up page, open to guests (docs/landers-and-tracking.md). */
export const Route = createFileRoute('/_empty/members/$memberId/landing')({
  beforeLoad: ({ params }) => {
    if (parseMemberId(params.memberId) === null) throw notFound()
  },
  component: function Page() {
    const { memberId } = Route.useParams()
    return <MemberLanding memberId={Number(memberId)} variant="landing" />
  },
})
