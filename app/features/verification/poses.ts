// The verification poses (VERIFICATION_POSES) in the member's language.
import { m } from '../../../messages/paraglide/messages.js'

const POSES: Record<string, () => string> = {
  hand_on_head: m.verify_pose_hand_on_head,
  thumb_up: m.verify_pose_thumb_up,
  peace_sign: m.verify_pose_peace_sign,
  hand_on_chin: m.verify_pose_hand_on_chin,
  point_up: m.verify_pose_point_up,
}

export const poseText = (pose: string) => POSES[pose]?.() ?? pose
