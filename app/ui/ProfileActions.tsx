import { ChatButton } from './ChatButton.tsx'
import { LikeButton } from './LikeButton.tsx'
import { SafetyActions } from './SafetyActions.tsx'

export interface ProfileActionsProps {
  profile: { id: number; name: string; fictional?: boolean }
  liked: boolean
}

/**
 * A member's actions on another's profile: like and chat in a bar that stays
 * at the foot of the screen while the profile scrolls (app/styles.css
 * `.profile-page__bar`), report and block after them.
 */
export function ProfileActions({ profile, liked }: ProfileActionsProps) {
  return (
    <>
      <div className="profile-page__bar">
        <LikeButton profile={profile} liked={liked} />
        <ChatButton profile={profile} />
      </div>
      <div className="profile-page__actions">
        <SafetyActions profile={profile} />
      </div>
    </>
  )
}
