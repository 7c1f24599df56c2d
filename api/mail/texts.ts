// Every mail in one locale, its texts read from messages/*.json (Paraglide
// messages `mail_<kind>_<part>`, compiled by `npm run i18n`). The choices a
// mail makes (which restriction, whether a report was acted on, a fallback
// for a missing value) stay here; the words are the messages'. Placeholders
// are the messages' inputs: `{site}`, `{name}`, ...
import type { Locale } from '../contract/index.ts'
import * as m from './messages.ts'
import {
  complaintOf,
  type LocaleTemplates,
  type MailVars,
  messageOf,
  receiptOf,
  reportOf,
  statementOf,
  withdrawalOf,
} from './types.ts'

type Options = { locale: Locale }
type Text<I> = (inputs: I, options: Options) => string

/** The restriction a statement of reasons (or an appeal's decision) is about. */
const RESTRICTIONS = new Map<string, Text<{ ends: string }>>([
  ['warn', m.mail_restriction_warn],
  ['suspend', m.mail_restriction_suspend],
  ['ban', m.mail_restriction_ban],
  ['remove_photo', m.mail_restriction_remove_photo],
  ['remove_text', m.mail_restriction_remove_text],
])

/** The rule of the terms a restriction is for (an unknown one is named as it is). */
const RULES = new Map<string, Text<object>>([
  ['harassment', m.mail_rule_harassment],
  ['spam_scam', m.mail_rule_spam_scam],
  ['fake_profile', m.mail_rule_fake_profile],
  ['explicit_content', m.mail_rule_explicit_content],
  ['underage', m.mail_rule_underage],
  ['other', m.mail_rule_other],
])

/** Name and site, which most mails take. */
const who = (v: MailVars) => ({ name: v.name, site: v.site })

/** The restriction's sentence; none for an unknown kind. */
const restriction = (v: MailVars, o: Options) => {
  const s = statementOf(v)
  return RESTRICTIONS.get(s.kind)?.({ ends: s.ends }, o) ?? ''
}

/** The mail templates of one locale. */
export function templatesIn(locale: Locale): LocaleTemplates {
  const o: Options = { locale }
  return {
    ...accessMails(o),
    ...addressMails(o),
    ...complaintMails(o),
    ...memberMails(o),
    ...moderationMails(o),
    ...withdrawalMails(o),
  }
}

/** Signing up and getting in: activation, a second sign-up, password reset, unlocks. */
const accessMails = (o: Options) => ({
  activate: (v: MailVars) => ({
    subject: m.mail_activate_subject(who(v), o),
    lines: [
      m.mail_activate_greeting(who(v), o),
      m.mail_activate_line1(who(v), o),
      m.mail_activate_line2({}, o),
      m.mail_activate_line3({}, o),
    ],
    action: { label: m.mail_activate_action({}, o), url: v.link },
  }),
  signup_exists: (v: MailVars) => ({
    subject: m.mail_signup_exists_subject(who(v), o),
    lines: [
      m.mail_signup_exists_greeting(who(v), o),
      m.mail_signup_exists_line1(who(v), o),
      m.mail_signup_exists_line2({}, o),
      m.mail_signup_exists_line3({}, o),
    ],
    action: { label: m.mail_signup_exists_action({}, o), url: v.link },
  }),
  reset: (v: MailVars) => ({
    subject: m.mail_reset_subject(who(v), o),
    lines: [
      m.mail_reset_greeting(who(v), o),
      m.mail_reset_line1({}, o),
      m.mail_reset_line2({}, o),
      m.mail_reset_line3({}, o),
    ],
    action: { label: m.mail_reset_action({}, o), url: v.link },
  }),
  login_unlock: (v: MailVars) => ({
    subject: m.mail_login_unlock_subject(who(v), o),
    lines: [
      m.mail_login_unlock_greeting(who(v), o),
      m.mail_login_unlock_line1(who(v), o),
      m.mail_login_unlock_line2({}, o),
      m.mail_login_unlock_line3({}, o),
    ],
    action: { label: m.mail_login_unlock_action({}, o), url: v.link },
  }),
  staff_unlock: (v: MailVars) => ({
    subject: m.mail_staff_unlock_subject(who(v), o),
    lines: [
      m.mail_staff_unlock_greeting(who(v), o),
      m.mail_staff_unlock_line1(who(v), o),
      m.mail_staff_unlock_line2({}, o),
      m.mail_staff_unlock_line3({}, o),
    ],
    action: { label: m.mail_staff_unlock_action({}, o), url: v.link },
  }),
})

/** A change of mail address: the confirmation, the notice to the old address, a taken address. */
const addressMails = (o: Options) => ({
  mail_change_confirm: (v: MailVars) => {
    const p = { ...who(v), email: v.newEmail ?? m.mail_mail_change_confirm_no_email({}, o) }
    return {
      subject: m.mail_mail_change_confirm_subject(p, o),
      lines: [
        m.mail_mail_change_confirm_greeting(p, o),
        m.mail_mail_change_confirm_line1(p, o),
        m.mail_mail_change_confirm_line2({}, o),
      ],
      action: { label: m.mail_mail_change_confirm_action({}, o), url: v.link },
    }
  },
  mail_change_notice: (v: MailVars) => {
    const p = { ...who(v), email: v.newEmail ?? m.mail_mail_change_notice_no_email({}, o) }
    return {
      subject: m.mail_mail_change_notice_subject(p, o),
      lines: [
        m.mail_mail_change_notice_greeting(p, o),
        m.mail_mail_change_notice_line1(p, o),
        m.mail_mail_change_notice_line2({}, o),
      ],
      action: { label: m.mail_mail_change_notice_action({}, o), url: v.link },
    }
  },
  mail_change_taken: (v: MailVars) => ({
    subject: m.mail_mail_change_taken_subject(who(v), o),
    lines: [
      m.mail_mail_change_taken_greeting({}, o),
      m.mail_mail_change_taken_line1(who(v), o),
      m.mail_mail_change_taken_line2({}, o),
    ],
    action: { label: m.mail_mail_change_taken_action({}, o), url: v.link },
  }),
})

/** Reports and complaints: to the operator, and the receipt to whoever filed one. */
const complaintMails = (o: Options) => ({
  report: (v: MailVars) => {
    const r = reportOf(v)
    const p = { ...who(v), ...r, text: r.text || m.mail_report_no_text({}, o) }
    return {
      subject: m.mail_report_subject(p, o),
      lines: [m.mail_report_line1(p, o), m.mail_report_line2(p, o), m.mail_report_line3({}, o)],
      action: { label: m.mail_report_action({}, o), url: v.link },
    }
  },
  complaint_receipt: (v: MailVars) => {
    const p = { ...who(v), reference: complaintOf(v).reference }
    return {
      subject: m.mail_complaint_receipt_subject(p, o),
      lines: [
        m.mail_complaint_receipt_greeting(p, o),
        m.mail_complaint_receipt_line1(p, o),
        m.mail_complaint_receipt_line2({}, o),
        m.mail_complaint_receipt_line3({}, o),
      ],
      action: { label: m.mail_complaint_receipt_action(p, o), url: v.link },
    }
  },
  complaint: (v: MailVars) => {
    const c = complaintOf(v)
    // The sender's name and address, not the member's (there is none: this goes to the operator).
    const p = { ...c, site: v.site, member: c.member ?? '', url: c.url || '-' }
    return {
      subject: m.mail_complaint_subject(p, o),
      lines: [
        m.mail_complaint_line1(p, o),
        c.member ? m.mail_complaint_from_member(p, o) : m.mail_complaint_from(p, o),
        m.mail_complaint_line2(p, o),
        m.mail_complaint_line3({}, o),
        c.text,
        m.mail_complaint_line4(p, o),
      ],
      action: { label: m.mail_complaint_action({}, o), url: v.link },
    }
  },
})

/** A purchase receipt and the mail about a new message. */
const memberMails = (o: Options) => ({
  receipt: (v: MailVars) => {
    const p = { ...who(v), ...receiptOf(v) }
    return {
      subject: m.mail_receipt_subject(p, o),
      lines: [
        m.mail_receipt_greeting(p, o),
        m.mail_receipt_line1(p, o),
        m.mail_receipt_line2(p, o),
        m.mail_receipt_line3(p, o),
      ],
      action: { label: m.mail_receipt_action({}, o), url: v.link },
    }
  },
  new_message: (v: MailVars) => {
    const msg = messageOf(v)
    const p = { ...who(v), sender: msg.sender }
    return {
      subject: msg.photo
        ? m.mail_new_message_photo_subject(p, o)
        : msg.voice
          ? m.mail_new_message_voice_subject(p, o)
          : m.mail_new_message_subject(p, o),
      lines: [
        m.mail_new_message_greeting(p, o),
        msg.photo
          ? m.mail_new_message_photo_line1(p, o)
          : msg.voice
            ? m.mail_new_message_voice_line1(p, o)
            : m.mail_new_message_line1(p, o),
        m.mail_new_message_line2({}, o),
      ],
      action: { label: m.mail_new_message_action({}, o), url: v.link },
      optOut: { label: m.mail_new_message_opt_out({}, o), url: msg.settings },
    }
  },
})

/** Moderation: statements of reasons, a refused verification, decisions on reports and appeals. */
const moderationMails = (o: Options) => ({
  statement_of_reasons: (v: MailVars) => {
    const s = statementOf(v)
    const rule = RULES.get(s.rule)?.({}, o) ?? s.rule
    const p = { ...who(v), rule, reason: s.reason }
    return {
      subject: m.mail_statement_of_reasons_subject(p, o),
      lines: [
        m.mail_statement_of_reasons_greeting(p, o),
        restriction(v, o),
        m.mail_statement_of_reasons_line1(p, o),
        m.mail_statement_of_reasons_line2(p, o),
        m.mail_statement_of_reasons_line3({}, o),
        m.mail_statement_of_reasons_line4({}, o),
      ],
      action: { label: m.mail_statement_of_reasons_action({}, o), url: v.link },
    }
  },
  verification_refused: (v: MailVars) => {
    const p = { ...who(v), reason: statementOf(v).reason }
    return {
      subject: m.mail_verification_refused_subject(p, o),
      lines: [
        m.mail_statement_of_reasons_greeting(p, o),
        m.mail_verification_refused_line1(p, o),
        m.mail_statement_of_reasons_line2(p, o),
        m.mail_statement_of_reasons_line3({}, o),
        m.mail_verification_refused_line2({}, o),
      ],
      action: { label: m.mail_verification_refused_action({}, o), url: v.link },
    }
  },
  report_decision: (v: MailVars) => ({
    subject: m.mail_report_decision_subject(who(v), o),
    lines: [
      m.mail_report_decision_greeting(who(v), o),
      m.mail_report_decision_line1({}, o),
      v.decision?.acted
        ? m.mail_report_decision_acted({}, o)
        : m.mail_report_decision_not_acted({}, o),
      m.mail_report_decision_line2({}, o),
    ],
    action: { label: m.mail_report_decision_action({}, o), url: v.link },
  }),
  appeal_decision: (v: MailVars) => {
    const kind = statementOf(v).kind
    const p = { ...who(v), reason: v.appeal?.reason ?? '' }
    const outcome =
      v.appeal?.outcome !== 'lifted'
        ? m.mail_appeal_decision_upheld({}, o)
        : kind === 'suspend' || kind === 'ban'
          ? m.mail_appeal_decision_lifted_login({}, o)
          : m.mail_appeal_decision_lifted({}, o)
    return {
      subject: m.mail_appeal_decision_subject(p, o),
      lines: [
        m.mail_appeal_decision_greeting(p, o),
        m.mail_appeal_decision_line1({}, o),
        restriction(v, o),
        outcome,
        m.mail_appeal_decision_line2(p, o),
        m.mail_appeal_decision_line3({}, o),
      ],
      action: { label: m.mail_appeal_decision_action({}, o), url: v.link },
    }
  },
})

/** Withdrawal from a purchase: the confirmation and the link to withdraw. */
const withdrawalMails = (o: Options) => ({
  withdrawal: (v: MailVars) => {
    const p = { ...who(v), ...withdrawalOf(v) }
    return {
      subject: m.mail_withdrawal_subject(p, o),
      lines: [
        m.mail_withdrawal_greeting(p, o),
        m.mail_withdrawal_line1(p, o),
        p.credits > 0 && p.refund
          ? m.mail_withdrawal_refund(p, o)
          : m.mail_withdrawal_no_refund(p, o),
        m.mail_withdrawal_line2({}, o),
      ],
      action: { label: m.mail_withdrawal_action({}, o), url: v.link },
    }
  },
  withdrawal_link: (v: MailVars) => {
    const p = { ...who(v), ...withdrawalOf(v) }
    return {
      subject: m.mail_withdrawal_link_subject(p, o),
      lines: [
        m.mail_withdrawal_link_greeting(p, o),
        m.mail_withdrawal_link_line1(p, o),
        m.mail_withdrawal_link_line2({}, o),
      ],
      action: { label: m.mail_withdrawal_link_action({}, o), url: v.link },
    }
  },
})
