// The shape of a mail template. texts.ts maps every mail kind to a function of
// these variables in a locale (its texts are Paraglide messages in
// messages/*.json); templates.ts renders text and HTML from it.

export const MAIL_KINDS = [
  'activate',
  'signup_exists',
  'reset',
  'login_unlock',
  'staff_unlock',
  'mail_change_confirm',
  'mail_change_notice',
  'mail_change_taken',
  'report',
  'complaint_receipt',
  'complaint',
  'receipt',
  'new_message',
  'statement_of_reasons',
  'report_decision',
  'appeal_decision',
  'verification_refused',
  'withdrawal',
  'withdrawal_link',
] as const
export type MailKind = (typeof MAIL_KINDS)[number]

export interface MailVars {
  /** The member's name (or the address when there is no member). */
  name: string
  /** Site name (settings.name). */
  site: string
  /** The link the mail is about; absolute. */
  link: string
  /** The new address of a mail change. */
  newEmail?: string
  /** A member report (to the operator): its number, reason and the member's words. */
  report?: { id: number; reason: string; reported: number; reporter: number; text: string }
  /**
   * A complaint from the public form. The receipt to the sender quotes only
   * the reference (never the sender's words: the form is no relay); the
   * operator's copy has everything.
   */
  complaint?: {
    reference: string
    kind: string
    name: string
    email: string
    subject: string
    url: string
    text: string
    member: number | null
  }
  /** A purchase of credits: what was bought, for how much (formatted), the balance after it. */
  receipt?: { credits: number; amount: string; balance: number; transaction: string }
  /**
   * A new message: who wrote (the sender's profile name; never the message
   * itself) and where the member turns these mails off (absolute /notifications).
   */
  message?: { sender: string; settings: string; photo?: boolean; voice?: boolean }
  /**
   * A statement of reasons (DSA Art. 17): the restriction (warn | suspend |
   * ban | remove_photo | remove_text), the rule, the moderator's facts and
   * reasons, and a suspension's last day (YYYY-MM-DD, else '').
   */
  statement?: { kind: string; rule: string; reason: string; ends: string }
  /** The decision on a report or complaint, to whoever sent it. */
  decision?: { acted: boolean; action: string }
  /** The outcome of an appeal (upheld | lifted) with the second moderator's reason. */
  appeal?: { outcome: string; reason: string }
  /**
   * A withdrawal from a purchase (CRD Art. 11a): the order number, the date
   * and time of the withdrawal (or of the link's request) as the member reads
   * them, the refund (formatted money) and the unused credits it is for.
   */
  withdrawal?: { order: string; at: string; refund: string; credits: number }
}

export interface MailContent {
  subject: string
  /** Paragraphs, plain text; the HTML part escapes them. */
  lines: string[]
  /** The one button of the mail; in the text part it is the label and the URL. */
  action?: { label: string; url: string }
  /** Small print under the signature: why this mail came and where to stop it (label and URL). */
  optOut?: { label: string; url: string }
}

export type LocaleTemplates = Record<MailKind, (v: MailVars) => MailContent>

const NO_COMPLAINT = {
  reference: '',
  kind: '',
  name: '',
  email: '',
  subject: '',
  url: '',
  text: '',
  member: null,
}

const NO_REPORT = { id: 0, reason: '', reported: 0, reporter: 0, text: '' }

/** The report of a report mail (always set for that kind). */
export const reportOf = (v: MailVars): NonNullable<MailVars['report']> => v.report ?? NO_REPORT

const NO_RECEIPT = { credits: 0, amount: '', balance: 0, transaction: '' }

/** The purchase of a receipt mail (always set for that kind). */
export const receiptOf = (v: MailVars): NonNullable<MailVars['receipt']> => v.receipt ?? NO_RECEIPT

/** The message of a new-message mail (always set for that kind). */
export const messageOf = (v: MailVars): NonNullable<MailVars['message']> =>
  v.message ?? { sender: '', settings: v.link }

/** The complaint of a complaint mail (always set for those kinds). */
export const complaintOf = (v: MailVars): NonNullable<MailVars['complaint']> =>
  v.complaint ?? NO_COMPLAINT

const NO_STATEMENT = { kind: '', rule: '', reason: '', ends: '' }

/** The statement of a statement-of-reasons or appeal mail (always set for those kinds). */
export const statementOf = (v: MailVars): NonNullable<MailVars['statement']> =>
  v.statement ?? NO_STATEMENT

const NO_WITHDRAWAL = { order: '', at: '', refund: '', credits: 0 }

/** The withdrawal of a withdrawal mail (always set for those kinds). */
export const withdrawalOf = (v: MailVars): NonNullable<MailVars['withdrawal']> =>
  v.withdrawal ?? NO_WITHDRAWAL
