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
}
export const typeName = (t: string) => TYPES[t]?.() ?? t
