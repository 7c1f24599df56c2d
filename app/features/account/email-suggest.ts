// Spec §5 "did you mean" for mistyped mail domains, with the maintained
// @zootools/email-spell-checker (a fixed mailcheck.js: Sift3 distance over
// whole domains, then second-level and top-level parts). Its built-in lists
// are US-centred; the site's visitors are mostly Dutch, Belgian and Polish,
// so their providers are added here.
import { POPULAR_DOMAINS, POPULAR_TLDS, run } from '@zootools/email-spell-checker'

/** Spec §5: distance threshold 2 for domain, second-level and top-level parts. */
export const SUGGEST_THRESHOLD = 2

const DUTCH = [
  'ziggo.nl',
  'kpnmail.nl',
  'kpnplanet.nl',
  'hotmail.nl',
  'live.nl',
  'outlook.nl',
  'home.nl',
  'planet.nl',
  'xs4all.nl',
  'telfort.nl',
  'chello.nl',
  'casema.nl',
  'upcmail.nl',
  'zeelandnet.nl',
  'hetnet.nl',
  'quicknet.nl',
]
const BELGIAN = [
  'telenet.be',
  'skynet.be',
  'proximus.be',
  'hotmail.be',
  'live.be',
  'outlook.be',
  'scarlet.be',
]
const POLISH = ['wp.pl', 'onet.pl', 'o2.pl', 'interia.pl', 'gazeta.pl', 'op.pl', 'tlen.pl']
const INTERNATIONAL = [
  'gmail.com',
  'googlemail.com',
  'hotmail.com',
  'outlook.com',
  'live.com',
  'yahoo.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'msn.com',
  'mail.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  't-online.de',
  'hotmail.de',
  'yahoo.de',
  'hotmail.fr',
  'orange.fr',
  'free.fr',
  'yahoo.fr',
  'laposte.net',
  'hotmail.it',
  'libero.it',
  'yahoo.it',
  'hotmail.es',
  'yahoo.es',
  'hotmail.co.uk',
  'yahoo.co.uk',
  'btinternet.com',
  'protonmail.com',
  'proton.me',
]

export const DOMAINS = [
  ...new Set([...POPULAR_DOMAINS, ...INTERNATIONAL, ...DUTCH, ...BELGIAN, ...POLISH]),
]

/** The part between @ and the last dot of each known domain ("ziggo", "wp", ...). */
export const SECOND_LEVEL_DOMAINS = [
  ...new Set(
    DOMAINS.map((d) => d.split('.')[0] ?? '').concat([
      'yahoo',
      'hotmail',
      'outlook',
      'live',
      'gmx',
    ]),
  ),
].filter((d) => d.length > 2)

export const TOP_LEVEL_DOMAINS = [
  ...new Set([
    ...POPULAR_TLDS,
    'com',
    'net',
    'org',
    'nl',
    'be',
    'pl',
    'de',
    'fr',
    'it',
    'es',
    'co.uk',
  ]),
]

/**
 * A corrected address for a likely typo in the domain, or null. The local
 * part is kept exactly as typed; only the domain is replaced.
 */
export function suggestEmail(email: string): string | null {
  const at = email.lastIndexOf('@')
  if (at <= 0 || !email.includes('.', at)) return null
  const suggestion = run({
    email,
    domains: DOMAINS,
    secondLevelDomains: SECOND_LEVEL_DOMAINS,
    topLevelDomains: TOP_LEVEL_DOMAINS,
    domainThreshold: SUGGEST_THRESHOLD,
    secondLevelThreshold: SUGGEST_THRESHOLD,
    topLevelThreshold: SUGGEST_THRESHOLD,
  })
  if (!suggestion) return null
  const full = `${email.slice(0, at)}@${suggestion.domain}`
  return full.toLowerCase() === email.toLowerCase() ? null : full
}
