import {
  complaintOf as c,
  type LocaleTemplates,
  type MailVars,
  messageOf as m,
  statementOf as s,
} from './types.ts'

const rules: Record<string, string> = {
  harassment: `harassment`,
  spam_scam: `spam or scams`,
  fake_profile: `fake profiles`,
  explicit_content: `explicit content`,
  underage: `members under 18`,
  other: `our terms of use`,
}
const whats: Record<string, (v: MailVars) => string> = {
  warn: () => `We are giving you a formal warning.`,
  suspend: (v) =>
    `We have suspended your account until ${s(v).ends} (UTC). You cannot log in until then.`,
  ban: () => `We have closed your account permanently (ban).`,
  remove_photo: () => `We have removed a photo from your profile.`,
  remove_text: () => `We have removed the text of your profile.`,
}
const whatOf = (v: MailVars) => whats[s(v).kind]?.(v) ?? ''

/** English: complete; every other locale falls back to these per mail kind. */
export const en: LocaleTemplates = {
  activate: (v) => ({
    subject: `Activate your ${v.site} account`,
    lines: [
      `Hello ${v.name},`,
      `Welcome to ${v.site}! Please confirm your email address to activate your account.`,
      'The link works once and expires after 7 days.',
      'If you did not sign up, you can ignore this mail.',
    ],
    action: { label: 'Activate my account', url: v.link },
  }),
  signup_exists: (v) => ({
    subject: `Sign-up attempt at ${v.site}`,
    lines: [
      `Hello ${v.name},`,
      `Someone tried to create a new ${v.site} account with this address, which already has an account.`,
      'If that was you, log in instead; if you forgot your password, you can reset it from the login page.',
      'If it was not you, you can ignore this mail: nothing was changed.',
    ],
    action: { label: 'Log in', url: v.link },
  }),
  reset: (v) => ({
    subject: `Reset your ${v.site} password`,
    lines: [
      `Hello ${v.name},`,
      'We received a request to reset your password. Choose a new one with the link below.',
      'The link works once and expires after 1 hour. Setting a new password logs you out everywhere else.',
      'If you did not ask for this, ignore this mail: your password stays the same.',
    ],
    action: { label: 'Choose a new password', url: v.link },
  }),
  login_unlock: (v) => ({
    subject: `Logging in to ${v.site} is paused`,
    lines: [
      `Hello ${v.name},`,
      `Someone tried to log in to your ${v.site} account with a wrong password too many times, so logging in to it is paused for a while, for you too.`,
      'If that was you, use the button below to log in again straight away. The link works once and expires after 1 hour.',
      'If it was not you, someone may be trying to guess your password. Nobody gets in without it; if you use it anywhere else, or it is short, choose a new one with "Forgot your password?" on the login page.',
    ],
    action: { label: 'Log in again now', url: v.link },
  }),
  staff_unlock: (v) => ({
    subject: `Console sign-in at ${v.site} is paused`,
    lines: [
      `Hello ${v.name},`,
      `There were too many failed attempts to sign in to the ${v.site} console with your account, so signing in with it is paused for a while, for you too.`,
      'If that was you, use the button below to sign in again straight away (with your password and the code from your authenticator app). The link works once and expires after 1 hour.',
      'If it was not you, someone may be trying to get into the console with your account: please tell an admin.',
    ],
    action: { label: 'Sign in again now', url: v.link },
  }),
  mail_change_confirm: (v) => ({
    subject: `Confirm your new email address for ${v.site}`,
    lines: [
      `Hello ${v.name},`,
      `Please confirm that ${v.newEmail ?? 'this address'} is the new email address of your ${v.site} account.`,
      'Your address changes only when you follow this link. It works once and expires after 24 hours.',
    ],
    action: { label: 'Confirm my new address', url: v.link },
  }),
  mail_change_notice: (v) => ({
    subject: `Your ${v.site} email address is about to change`,
    lines: [
      `Hello ${v.name},`,
      `A change of your account's email address to ${v.newEmail ?? 'a new address'} was requested. It takes effect once the new address is confirmed.`,
      'If this address is wrong or you did not ask for the change, let us know.',
    ],
    action: { label: 'This is not right', url: v.link },
  }),
  mail_change_taken: (v) => ({
    subject: `Email change attempt at ${v.site}`,
    lines: [
      'Hello,',
      `Someone asked to move another ${v.site} account to this address, which already has an account. Nothing was changed.`,
      'If that was you, log in with this address instead.',
    ],
    action: { label: 'Log in', url: v.link },
  }),
  report: (v) => ({
    subject: `Report #${v.report?.id} at ${v.site}: ${v.report?.reason}`,
    lines: [
      `Member ${v.report?.reporter} reported member ${v.report?.reported} for: ${v.report?.reason}.`,
      `What they wrote: ${v.report?.text || '(nothing)'}`,
      'Please review the profile and, where a message was reported, the conversation around it.',
    ],
    action: { label: 'Open the reported profile', url: v.link },
  }),
  complaint_receipt: (v) => ({
    subject: `We received your complaint ${c(v).reference} at ${v.site}`,
    lines: [
      `Hello ${v.name},`,
      `We received your complaint at ${v.site}. Its reference is ${c(v).reference}; please quote it if you write to us about it.`,
      `We review every notice carefully and answer you by email, as a rule within 7 days. If we act on it, we tell you what we did and why.`,
      `Did you not send this? Then you can ignore this mail.`,
    ],
    action: { label: `Complaints and appeals at ${v.site}`, url: v.link },
  }),
  complaint: (v) => ({
    subject: `Complaint ${c(v).reference} at ${v.site}: ${c(v).subject}`,
    lines: [
      `A ${c(v).kind} arrived through the complaints form.`,
      `From: ${c(v).name} <${c(v).email}>${c(v).member ? ` (member ${c(v).member})` : ''}`,
      `Where: ${c(v).url || '-'}`,
      `What and why:`,
      `${c(v).text}`,
      `The sender confirmed acting in good faith. Answer by mail, quoting ${c(v).reference}.`,
    ],
    action: { label: 'Open the link of the complaint', url: v.link },
  }),
  receipt: (v) => {
    const r = v.receipt ?? { credits: 0, amount: '', balance: 0, transaction: '' }
    return {
      subject: `Your ${v.site} receipt: ${r.credits} credits`,
      lines: [
        `Hello ${v.name},`,
        `Thank you for your purchase. ${r.credits} credits have been added to your account for ${r.amount}.`,
        `Your balance is now ${r.balance} credits.`,
        `Transaction: ${r.transaction}`,
      ],
      action: { label: 'View the transaction', url: v.link },
    }
  },
  new_message: (v) => ({
    subject: `${m(v).sender} sent you a message on ${v.site}`,
    lines: [
      `Hello ${v.name},`,
      `${m(v).sender} sent you a new message on ${v.site}.`,
      'Log in to read it and reply. Until you have read it, we will not email you about this chat again.',
    ],
    action: { label: 'Read the message', url: v.link },
    optOut: {
      label: 'Rather not get these emails? Turn off "New messages" in your notification settings',
      url: m(v).settings,
    },
  }),
  statement_of_reasons: (v) => ({
    subject: `Decision about your ${v.site} account`,
    lines: [
      `Hello ${v.name},`,
      whatOf(v),
      `The rule concerned: ${rules[s(v).rule] ?? s(v).rule}.`,
      `Facts and reasons: ${s(v).reason}`,
      `This decision was taken by a person of our moderation team; no automated means were used to detect or decide it.`,
      `You can appeal free of charge within 6 months with the link below (or on the complaints page, choosing "appeal of a decision"). A different moderator reviews your appeal; you can also turn to an out-of-court dispute settlement body or the courts.`,
    ],
    action: { label: `Appeal this decision`, url: v.link },
  }),
  report_decision: (v) => ({
    subject: `Your report at ${v.site}: our decision`,
    lines: [
      `Hello ${v.name},`,
      `Thank you for your report. We have reviewed it.`,
      v.decision?.acted
        ? `We took action against the content or the member concerned.`
        : `We found no breach of our rules, so we took no action.`,
      `If you disagree with this decision, you can contest it with the link below.`,
    ],
    action: { label: `Contest the decision`, url: v.link },
  }),
  appeal_decision: (v) => ({
    subject: `Your appeal at ${v.site}: decision`,
    lines: [
      `Hello ${v.name},`,
      `A different moderator has reviewed your appeal.`,
      whatOf(v),
      v.appeal?.outcome === 'lifted'
        ? `We have lifted the decision.${s(v).kind === 'suspend' || s(v).kind === 'ban' ? ` You can log in again.` : ''}`
        : `We have upheld the decision.`,
      `Reasons: ${v.appeal?.reason ?? ''}`,
      `If you still disagree, you can turn to a certified out-of-court dispute settlement body or the courts.`,
    ],
    action: { label: `Log in`, url: v.link },
  }),
}
