import { m } from '../../messages/paraglide/messages.js'

/**
 * The verified mark: a moderator approved this member's posed selfie (photo
 * verification). Lucide's BadgeCheck, drawn by CSS (`.verified-mark` in
 * app/styles.css) rather than as a lucide-react component: the mark is on
 * every tile of /members, whose first-load JavaScript has a hard limit.
 */
export function VerifiedMark({ verified }: { verified: boolean | undefined }) {
  if (!verified) return null
  const label = m.verified_mark()
  return <span className="verified-mark" role="img" aria-label={label} title={label} />
}
