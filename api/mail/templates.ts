// Mail templates per locale (every mail in the member's language, with a
// plain-text part). The texts are Paraglide messages in messages/*.json, the
// same translation system as the app's (texts.ts); an unknown locale falls
// back to English.
import { Locale } from '../contract/index.ts'
import { templatesIn } from './texts.ts'
import type { LocaleTemplates, MailContent, MailKind, MailVars } from './types.ts'

export { MAIL_KINDS, type MailKind, type MailVars } from './types.ts'

/** Every mail kind per locale (not the site designs of api/contract/rules/templates.ts). */
export const MAIL_TEMPLATES = Object.fromEntries(
  Locale.options.map((locale) => [locale, templatesIn(locale)]),
) as Record<Locale, LocaleTemplates>

export interface RenderedMail {
  subject: string
  text: string
  html: string
  /** The locale the mail is written in (en when the member's is not one of ours). */
  locale: string
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

export function renderMail(kind: MailKind, locale: string, vars: MailVars): RenderedMail {
  const known = Locale.safeParse(locale)
  const lang: Locale = known.success ? known.data : 'en'
  const content: MailContent = MAIL_TEMPLATES[lang][kind](vars)
  const text = [
    ...content.lines,
    ...(content.action ? [`${content.action.label}: ${content.action.url}`] : []),
    `-- \n${vars.site}`,
    ...(content.optOut ? [`${content.optOut.label}: ${content.optOut.url}`] : []),
  ].join('\n\n')
  const button = content.action
    ? `<p><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:10px 18px;background:#c2185b;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(content.action.label)}</a></p>` +
      `<p style="font-size:12px;color:#666">${escapeHtml(content.action.url)}</p>`
    : ''
  const optOut = content.optOut
    ? `<p style="font-size:12px;color:#666"><a href="${escapeHtml(content.optOut.url)}" style="color:#666">${escapeHtml(content.optOut.label)}</a></p>`
    : ''
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head><body style="font-family:sans-serif;line-height:1.5">${content.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}${button}<p style="color:#666">${escapeHtml(vars.site)}</p>${optOut}</body></html>`
  return { subject: content.subject, text, html, locale: lang }
}
