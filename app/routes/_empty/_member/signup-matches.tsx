import { createFileRoute, Link } from '@tanstack/react-router'
import { SEARCH_PAGE_SIZE } from '../../../../api/contract/rules/limits.ts'
import { m } from '../../../../messages/paraglide/messages.js'
import { useSession } from '../../../data/session.ts'
import { useLikedSet, useSearchPage } from '../../../data/useMembers.ts'
import { useSettings } from '../../../data/useSettings.ts'
import { fictionalIconOf } from '../../../data/view.ts'
import { readMatchAnswers } from '../../../features/landers/match-answers.ts'
import { MemberTile } from '../../../ui/MemberTile.tsx'

/**
 * Spec §2 /signup-matches (after sign-up, empty layout): the best matches for
 * the match finder's answers, run as the member's first search (a manual
 * search, so the server keeps it as their search), with like and chat.
 */
export const Route = createFileRoute('/_empty/_member/signup-matches')({ component: Matches })

function Matches() {
  const { user } = useSession()
  const settings = useSettings()
  const answers = readMatchAnswers()
  const filters = answers ?? {
    gender: user?.profile.gender === 'male' ? ('female' as const) : ('male' as const),
  }
  const { stored } = useSearchPage(filters, 1)
  // One search page of them: the matches, filled up with similar members.
  const profiles = [...(stored?.profiles ?? []), ...(stored?.similar ?? [])].slice(
    0,
    SEARCH_PAGE_SIZE,
  )
  const liked = useLikedSet(profiles.map((p) => p.id))
  return (
    <main className="page">
      <h1>{m.traffic_sm_title()}</h1>
      <p>{m.traffic_sm_lead()}</p>
      <ul className="grid">
        {profiles.map((p) => (
          <MemberTile
            key={p.id}
            profile={p}
            liked={liked.has(p.id)}
            fictionalIcon={fictionalIconOf(settings)}
          />
        ))}
      </ul>
      <Link to="/members" className="button">
        {m.traffic_sm_more()}
      </Link>
    </main>
  )
}
