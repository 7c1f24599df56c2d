import { createFileRoute, notFound } from '@tanstack/react-router'
import { useEffect } from 'react'
import { useSession } from '../../../../data/session.ts'
import { worker } from '../../../../data/worker.ts'
import { parseMemberId } from '../../../../ui/member-id.ts'
import { ProfileActions } from '../../../../ui/ProfileActions.tsx'
import { ProfileView } from '../../../../ui/ProfileView.tsx'

/**
 * Spec §2: /likes/m/{memberId}, the profile page opened from a received like
 * (optional auth). Spec §4: opening a like clears its new flag, on this
 * device at once and on the server through the outbox (PUT /api/likes.php).
 */
export const Route = createFileRoute('/_default/likes/m/$memberId')({
  beforeLoad: async ({ context, params }) => {
    if (parseMemberId(params.memberId) === null) throw notFound()
    await context.session.load()
  },
  component: LikedMemberPage,
})

function LikedMemberPage() {
  const { memberId } = Route.useParams()
  const id = parseMemberId(memberId)
  const { user } = useSession()
  useEffect(() => {
    if (id !== null && user) void worker().markLikeSeen(id)
  }, [id, user])
  return id === null ? null : <ProfileView key={id} memberId={id} Actions={ProfileActions} />
}
