import type { TemplateFlags } from '../contract/index.ts'
import type { Operator } from './settings.ts'

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** The spec §9 template flags that are off, as root classes (`hide-chat`, ...). */
export const hiddenParts = (flags: TemplateFlags) =>
  (Object.keys(flags) as (keyof TemplateFlags)[])
    .filter((k) => !flags[k])
    .map((k) => `hide-${k.replace('_', '-')}`)

/** The root classes of a site: template, `niche-N`, and the parts it hides. */
export const siteClasses = (s: Pick<Operator, 'template' | 'niche' | 'template_flags'>) =>
  [s.template, `niche-${s.niche}`, ...hiddenParts(s.template_flags)].join(' ')

/**
 * The app shell (built index.html) dressed for one site: the root element
 * carries the template and niche classes (spec §2) before any script runs, so
 * the first paint already has the site's design, and the title its name.
 * app/theme reads the classes back, so the app needs no request to know them.
 */
export function shellFor(html: string, s: Operator): string {
  const classes = siteClasses(s)
  return html
    .replace(/<html([^>]*)>/, (_m, attrs: string) => {
      const rest = attrs.replace(/\s(class|data-template|data-niche)="[^"]*"/g, '')
      return `<html${rest} class="${classes}" data-template="${s.template}" data-niche="${s.niche}">`
    })
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(s.name)}</title>`)
}
