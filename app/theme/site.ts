import type { Template, TemplateFlags } from '../../api/contract/index.ts'
import { DEFAULT_TEMPLATE, isTemplate } from '../../api/contract/rules/templates.ts'
import { useSettings } from '../data/useSettings.ts'

/** How the site looks: template, niche and the parts it shows (spec §1, §9). */
export interface Look {
  template: Template
  niche: number
  flags: TemplateFlags
}

const ALL_ON: TemplateFlags = {
  navigation: true,
  chat: true,
  likes: true,
  notifications: true,
  footer_copyright: true,
}

/**
 * The look the server wrote on <html> for this host (api/settings/shell.ts):
 * known before any settings request, so the first render already matches.
 */
export function lookOfDocument(root: HTMLElement = document.documentElement): Look {
  const t = root.dataset.template
  const template: Template = isTemplate(t) ? t : DEFAULT_TEMPLATE
  const niche = Number(root.dataset.niche) || 1
  const flags = { ...ALL_ON }
  for (const key of Object.keys(flags) as (keyof TemplateFlags)[]) {
    if (root.classList.contains(`hide-${key.replace('_', '-')}`)) flags[key] = false
  }
  return { template, niche, flags }
}

let fromDocument: Look | undefined

/** The site's look: the stored settings once known, else what the served page says. */
export function useLook(): Look {
  const settings = useSettings()
  if (settings)
    return { template: settings.template, niche: settings.niche, flags: settings.template_flags }
  // The server render always has the settings (page-seed.ts); no document there.
  if (typeof document === 'undefined') {
    return { template: DEFAULT_TEMPLATE, niche: 1, flags: ALL_ON }
  }
  fromDocument ??= lookOfDocument()
  return fromDocument
}

/** Root classes of the look beyond the template: `niche-N` and the hidden parts. */
export const lookClasses = (look: Look) =>
  [
    `niche-${look.niche}`,
    ...(Object.keys(look.flags) as (keyof TemplateFlags)[])
      .filter((k) => !look.flags[k])
      .map((k) => `hide-${k.replace('_', '-')}`),
  ].join(' ')
