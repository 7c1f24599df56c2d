import { createFileRoute, notFound } from '@tanstack/react-router'
import { ToSlug } from '../../../../../features/landers/ToSlug.tsx'
import { parseMemberId } from '../../../../../ui/member-id.ts'

/** Spec §2: /members/{id}/landing3 goes to the same path plus its localized slug. */
export const Route = createFileRoute('/_empty/members/$memberId/landing3/')({
  beforeLoad: ({ params }) => {
    if (parseMemberId(params.memberId) === null) throw notFound()
  },
  component: function Page() {
    const { memberId } = Route.useParams()
    return <ToSlug base={`/members/${memberId}/landing3`} page="landing3" />
  },
})
