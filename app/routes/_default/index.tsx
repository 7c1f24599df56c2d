import { createFileRoute } from '@tanstack/react-router'
import { HomePage } from '../../features/site/HomePage.tsx'
import { MemberTile } from '../../ui/MemberTile.tsx'

/** Home (optional auth); a guest's first load gets the same page from the light entry. */
export const Route = createFileRoute('/_default/')({ component: Home })

function Home() {
  return <HomePage Tile={MemberTile} />
}
