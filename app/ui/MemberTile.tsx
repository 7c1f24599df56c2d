import type { Profile } from '../../api/contract/index.ts'
import { ChatButton } from './ChatButton.tsx'
import { LikeButton } from './LikeButton.tsx'
import { MemberTileBase } from './MemberTileBase.tsx'

/** The props of a tile in a grid, with or without a member's actions. */
export interface TileProps {
  profile: Profile
  liked: boolean
  fictionalIcon?: boolean
  /** Like and chat need a member; a guest's grid leaves them out. */
  actions?: boolean
}

/**
 * A member in the grid with like/unlike and chat (spec §2). A guest's page
 * that has no use for them renders MemberTileBase, without their code.
 */
export function MemberTile({ profile, liked, fictionalIcon = true, actions = true }: TileProps) {
  return (
    <MemberTileBase profile={profile} fictionalIcon={fictionalIcon}>
      {actions && (
        <div className="tile__actions">
          <LikeButton profile={profile} liked={liked} />
          <ChatButton profile={profile} />
        </div>
      )}
    </MemberTileBase>
  )
}
