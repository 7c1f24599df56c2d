import { Heart } from 'lucide-react'
import { m } from '../../messages/paraglide/messages.js'
import { worker } from '../data/worker.ts'
import { useLook } from '../theme/site.ts'
import { showFailureToast } from './failure-toast.ts'

/**
 * Like/unlike toggle (spec §4: like toggles to unlike per profile). The
 * worker's outbox shows the change at once and sends it when it can, so the
 * button works offline; `liked` comes from the store and flips immediately.
 */
export function LikeButton({
  profile,
  liked,
  className = '',
}: {
  profile: { id: number; name: string }
  liked: boolean
  className?: string
}) {
  // Spec §9 template flag: a site without likes shows no like buttons.
  const { flags } = useLook()
  async function toggle() {
    try {
      if (liked) await worker().unlike(profile.id)
      else await worker().like(profile.id)
    } catch (e) {
      // The local store refused the write (quota, storage switched off).
      console.error('like: storing the action failed', e)
      showFailureToast((t) => t.likeNotStored(liked))
    }
  }
  if (!flags.likes) return null
  return (
    <button
      type="button"
      className={`button like-button${liked ? ' like-button--on' : ''} ${className}`}
      aria-pressed={liked}
      aria-label={m.like_label({ name: profile.name })}
      onClick={() => void toggle()}
    >
      <Heart className="icon" fill={liked ? 'currentColor' : 'none'} aria-hidden="true" />{' '}
      <span className="button__text">{liked ? m.liked_text() : m.like_text()}</span>
    </button>
  )
}
