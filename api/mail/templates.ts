// Mail templates per locale (every mail in the member's language,
// with a plain-text part). A locale lists what it has translated; a missing
// locale or kind falls back to English, kind by kind.
import type { Locale } from '../contract/index.ts'
import { de } from './de.ts'
import { en } from './en.ts'
import { es } from './es.ts'
import { fr } from './fr.ts'
import { it } from './it.ts'
import { nl } from './nl.ts'
import { pl } from './pl.ts'
import type { LocaleTemplates, MailContent, MailKind, MailVars } from './types.ts'

export { MAIL_KINDS, type MailKind, type MailVars } from './types.ts'

export const TEMPLATES: { en: LocaleTemplates } & Partial<
  Record<Locale, Partial<LocaleTemplates>>
> = { en, nl, de, it, fr, es, pl }

export interface RenderedMail {
  subject: string
  text: string
  html: string
  /** The locale the template came from (en when the member's is missing). */
  locale: string
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

export function renderMail(kind: MailKind, locale: string, vars: MailVars): RenderedMail {
  const byLocale: Partial<Record<string, Partial<LocaleTemplates>>> = TEMPLATES
  const own = byLocale[locale]?.[kind]
  const content: MailContent = (own ?? TEMPLATES.en[kind])(vars)
  const text = [
    ...content.lines,
    ...(content.action ? [`${content.action.label}: ${content.action.url}`] : []),
    `-- \n${vars.site}`,
    ...(content.optOut ? [`${content.optOut.label}: ${content.optOut.url}`] : []),
  ].join('\n\n')
  const lang = own ? locale : 'en'
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
