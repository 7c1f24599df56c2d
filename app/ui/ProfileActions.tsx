import { ChatButton } from './ChatButton.tsx'
import { LikeButton } from './LikeButton.tsx'
import { SafetyActions } from './SafetyActions.tsx'

export interface ProfileActionsProps {
  profile: { id: number; name: string; fictional?: boolean }
  liked: boolean
}

/** A member's actions on another's profile: like, chat, report and block. */
export function ProfileActions({ profile, liked }: ProfileActionsProps) {
  return (
    <div className="profile-page__actions">
      <LikeButton profile={profile} liked={liked} />
      <ChatButton profile={profile} />
      <SafetyActions profile={profile} />
    </div>
  )
}
