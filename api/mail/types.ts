// The shape of a mail template. Each locale file maps every mail kind to a
// function of the same variables; templates.ts renders text and HTML from it.

export const MAIL_KINDS = [
  'activate',
  'signup_exists',
  'reset',
  'mail_change_confirm',
  'mail_change_notice',
  'mail_change_taken',
  'report',
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
}

export interface MailContent {
  subject: string
  /** Paragraphs, plain text; the HTML part escapes them. */
  lines: string[]
  /** The one button of the mail; in the text part it is the label and the URL. */
  action?: { label: string; url: string }
}

export type LocaleTemplates = Record<MailKind, (v: MailVars) => MailContent>
