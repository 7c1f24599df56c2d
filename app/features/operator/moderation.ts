// Names of moderation's fixed lists in the console's language.
import { m } from '../../../messages/paraglide/messages.js'

const ACTIONS: Record<string, () => string> = {
  dismiss: m.op_mod_action_dismiss,
  warn: m.op_mod_action_warn,
  suspend: m.op_mod_action_suspend,
  ban: m.op_mod_action_ban,
  remove_photo: m.op_mod_action_remove_photo,
  remove_text: m.op_mod_action_remove_text,
  mark_fictional: m.op_mod_action_mark_fictional,
  unmark_fictional: m.op_mod_action_unmark_fictional,
  uphold: m.op_mod_action_uphold,
  lift: m.op_mod_action_lift,
  approve: m.op_mod_action_approve,
  reject: m.op_mod_action_reject,
  // A held first message's outcomes (the decision shown once decided).
  released: m.op_mod_decision_released,
  refused: m.op_mod_decision_refused,
}
export const actionName = (a: string) => ACTIONS[a]?.() ?? a

const RULES: Record<string, () => string> = {
  harassment: m.op_mod_rule_harassment,
  spam_scam: m.op_mod_rule_spam_scam,
  fake_profile: m.op_mod_rule_fake_profile,
  explicit_content: m.op_mod_rule_explicit_content,
  underage: m.op_mod_rule_underage,
  other: m.op_mod_rule_other,
}
export const ruleName = (r: string) => RULES[r]?.() ?? r

const TYPES: Record<string, () => string> = {
  report: m.op_mod_type_report,
  complaint: m.op_mod_type_complaint,
  appeal: m.op_mod_type_appeal,
  photo: m.op_mod_type_photo,
  scam: m.op_mod_type_scam,
  verification: m.op_mod_type_verification,
  profile_text: m.op_mod_type_profile_text,
}
export const typeName = (t: string) => TYPES[t]?.() ?? t

/** The name of an action on an item of `type`: dismissing a held first message releases it. */
export const actionOn = (type: string, a: string) =>
  type === 'scam' && a === 'dismiss' ? m.op_mod_action_release() : actionName(a)

const SIGNALS: Record<string, () => string> = {
  link: m.op_mod_signal_link,
  phone: m.op_mod_signal_phone,
  email: m.op_mod_signal_email,
  messenger: m.op_mod_signal_messenger,
  payment: m.op_mod_signal_payment,
  reports: m.op_mod_signal_reports,
}

/** An item's summary line: a photo's in words, a held message's signals (`phone, link`) named. */
export function summaryOf(item: { type: string; summary: string }): string {
  if (item.type === 'photo') {
    // `same_photo:12`: the same photo as one of member 12's (api/moderation/queue.ts).
    const same = item.summary.match(/^same_photo:(\d+)$/)
    if (same) return m.op_mod_photo_match_summary({ member: same[1]! })
    // `same_face:12`: the face kept for member 12 (api/images/face.ts).
    const face = item.summary.match(/^same_face:(\d+)$/)
    return face ? m.op_mod_face_match_summary({ member: face[1]! }) : m.op_mod_photo_summary()
  }
  if (item.type === 'verification') return m.op_mod_verification_summary()
  if (item.type === 'scam' || item.type === 'profile_text')
    return item.summary
      .split(', ')
      .map((s) => SIGNALS[s]?.() ?? s)
      .join(', ')
  return item.summary
}

/** A verification pose in words (the member's page has the same texts). */
export { poseText as poseName } from '../verification/poses.ts'
