import { createFileRoute, notFound } from '@tanstack/react-router'
import { parseMemberId } from '../../../ui/member-id.ts'
import { ProfileActions } from '../../../ui/ProfileActions.tsx'
import { ProfileView } from '../../../ui/ProfileView.tsx'

/** Spec §2: /members/{memberId}, optional auth (the root loads the stored user, if any). */
export const Route = createFileRoute('/_default/members/$memberId')({
  beforeLoad: async ({ context, params }) => {
    if (parseMemberId(params.memberId) === null) throw notFound()
    await context.session.load()
  },
  component: MemberPage,
})

function MemberPage() {
  const { memberId } = Route.useParams()
  const id = parseMemberId(memberId)
  return id === null ? null : <ProfileView key={id} memberId={id} Actions={ProfileActions} />
}
