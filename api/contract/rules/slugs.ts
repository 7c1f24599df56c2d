// Localized slugs of the landers and member landing pages (spec §2, §9): one
// table of lander × locale × niche → slug, which the server uses for its 301
// redirects and the app for its links. A slug is the niche prefix (spec §9:
// 1 none, 2 she-, 3 bdsm-, 4 bbw-, 5 gilf-, 6 milf-, 7 gay-), the lander's
// words in the language, and the language tag (spec §9: en is written eng),
// so every slug names exactly one lander, locale and niche.

export const SLUG_LOCALES = ['en', 'nl', 'de', 'it', 'fr', 'es', 'pl'] as const
export type SlugLocale = (typeof SLUG_LOCALES)[number]

/** Spec §9 niche slug prefixes, by niche number. */
export const NICHE_PREFIXES: Record<number, string> = {
  1: '',
  2: 'she-',
  3: 'bdsm-',
  4: 'bbw-',
  5: 'gilf-',
  6: 'milf-',
  7: 'gay-',
}
export const NICHES = [1, 2, 3, 4, 5, 6, 7] as const

/** Spec §9: the locale en maps to eng in a slug. */
export const localeTag = (locale: SlugLocale) => (locale === 'en' ? 'eng' : locale)

/** The landers with a slug page under /landers/{lander}/{slug} (spec §2). */
export const LANDER_SLUG_WORDS = {
  video: {
    en: 'meet-singles-on-video',
    nl: 'singles-ontmoeten-op-video',
    de: 'singles-treffen-per-video',
    it: 'incontra-single-in-video',
    fr: 'rencontre-celibataires-en-video',
    es: 'conoce-solteros-en-video',
    pl: 'poznaj-singli-na-wideo',
  },
  maplanding: {
    en: 'singles-near-you',
    nl: 'singles-bij-jou-in-de-buurt',
    de: 'singles-in-deiner-naehe',
    it: 'single-vicino-a-te',
    fr: 'celibataires-pres-de-chez-vous',
    es: 'solteros-cerca-de-ti',
    pl: 'single-w-twojej-okolicy',
  },
  socialnetwork: {
    en: 'dating-community',
    nl: 'datinggemeenschap',
    de: 'dating-gemeinschaft',
    it: 'community-di-incontri',
    fr: 'communaute-de-rencontres',
    es: 'comunidad-de-citas',
    pl: 'spolecznosc-randkowa',
  },
  collagelanding: {
    en: 'new-members-today',
    nl: 'nieuwe-leden-vandaag',
    de: 'neue-mitglieder-heute',
    it: 'nuovi-iscritti-oggi',
    fr: 'nouveaux-membres-du-jour',
    es: 'nuevos-miembros-hoy',
    pl: 'nowi-czlonkowie-dzisiaj',
  },
  transitionsvideolanding: {
    en: 'who-is-online-now',
    nl: 'wie-is-er-nu-online',
    de: 'wer-ist-jetzt-online',
    it: 'chi-e-online-ora',
    fr: 'qui-est-en-ligne',
    es: 'quien-esta-en-linea',
    pl: 'kto-jest-teraz-online',
  },
  gallery: {
    en: 'photo-gallery',
    nl: 'fotogalerij',
    de: 'fotogalerie',
    it: 'galleria-fotografica',
    fr: 'galerie-photos',
    es: 'galeria-de-fotos',
    pl: 'galeria-zdjec',
  },
  alonetonight: {
    en: 'alone-tonight',
    nl: 'alleen-vanavond',
    de: 'allein-heute-abend',
    it: 'solo-stasera',
    fr: 'seul-ce-soir',
    es: 'solo-esta-noche',
    pl: 'sam-dzis-wieczorem',
  },
  iconslanding: {
    en: 'find-your-type',
    nl: 'vind-jouw-type',
    de: 'finde-deinen-typ',
    it: 'trova-il-tuo-tipo',
    fr: 'trouvez-votre-type',
    es: 'encuentra-tu-tipo',
    pl: 'znajdz-swoj-typ',
  },
} as const satisfies Record<string, Record<SlugLocale, string>>
export type Lander = keyof typeof LANDER_SLUG_WORDS
export const LANDERS = Object.keys(LANDER_SLUG_WORDS) as Lander[]

/** Member landing pages /members/{id}/{page}/{slug} (spec §2). */
export const MEMBER_SLUG_WORDS = {
  landing2: {
    en: 'chat-with-me',
    nl: 'chat-met-mij',
    de: 'chatte-mit-mir',
    it: 'chatta-con-me',
    fr: 'discute-avec-moi',
    es: 'chatea-conmigo',
    pl: 'czatuj-ze-mna',
  },
  landing3: {
    en: 'meet-me-tonight',
    nl: 'ontmoet-me-vanavond',
    de: 'triff-mich-heute',
    it: 'incontrami-stasera',
    fr: 'rencontre-moi-ce-soir',
    es: 'conoceme-esta-noche',
    pl: 'poznaj-mnie-dzis',
  },
} as const satisfies Record<string, Record<SlugLocale, string>>
export type MemberLanding = keyof typeof MEMBER_SLUG_WORDS
export const MEMBER_LANDINGS = Object.keys(MEMBER_SLUG_WORDS) as MemberLanding[]

export type SlugPage = Lander | MemberLanding

/** The landers rendered in the empty layout (spec §2); the others use the lander layout. */
export const EMPTY_LAYOUT_LANDERS: readonly Lander[] = ['gallery', 'alonetonight', 'iconslanding']

const wordsOf = (page: SlugPage): Record<SlugLocale, string> =>
  page in LANDER_SLUG_WORDS
    ? LANDER_SLUG_WORDS[page as Lander]
    : MEMBER_SLUG_WORDS[page as MemberLanding]

export const isLander = (x: string): x is Lander => Object.hasOwn(LANDER_SLUG_WORDS, x)
export const isMemberLanding = (x: string): x is MemberLanding =>
  Object.hasOwn(MEMBER_SLUG_WORDS, x)
export const isSlugLocale = (x: string): x is SlugLocale =>
  (SLUG_LOCALES as readonly string[]).includes(x)

/** A niche outside 1–7 is read as 1 (no prefix). */
const nicheOf = (niche: number) => (NICHE_PREFIXES[niche] === undefined ? 1 : niche)

/** The slug of a page for a locale and niche. */
export function slugFor(page: SlugPage, locale: SlugLocale, niche: number): string {
  return `${NICHE_PREFIXES[nicheOf(niche)]}${wordsOf(page)[locale]}-${localeTag(locale)}`
}

/** Which locale and niche a slug of `page` was made for, or null when it is none of its slugs. */
export function parseSlug(
  page: SlugPage,
  slug: string,
): { locale: SlugLocale; niche: number } | null {
  for (const locale of SLUG_LOCALES) {
    for (const niche of NICHES) {
      if (slugFor(page, locale, niche) === slug) return { locale, niche }
    }
  }
  return null
}

/** The member landing pages as the tracking record and the visit counts name them (`member-<page>`). */
export const MEMBER_VISIT_LANDERS = [
  'member-signup',
  'member-landing',
  'member-landing2',
  'member-landing3',
] as const

/** A page whose visits are counted (api/traffic/visits.ts): a lander or a member landing page. */
export const isVisitLander = (x: string): boolean =>
  isLander(x) || (MEMBER_VISIT_LANDERS as readonly string[]).includes(x)

/**
 * A page the landers' light entry (app/lander.tsx) renders on a first load:
 * a lander at one of its slugs (the empty-layout landers with anything after
 * the slug, as their routes allow), or a member landing page (`signup`,
 * `landing`, or `landing2`/`landing3` at a slug). Any other path, a bare one
 * included, is the app's.
 */
export type LightPage =
  | { lander: Lander }
  | { member: number; variant: 'signup' | 'landing' | MemberLanding }

export function lightPageOf(path: string): LightPage | null {
  const lander = /^\/landers\/([a-z]+)\/([a-z0-9-]+)(\/.*)?$/.exec(path)
  if (lander) {
    const [, page = '', slug = '', rest] = lander
    if (!isLander(page) || !parseSlug(page, slug)) return null
    if (rest !== undefined && !EMPTY_LAYOUT_LANDERS.includes(page)) return null
    return { lander: page }
  }
  const member =
    /^\/members\/([1-9][0-9]{0,11})\/(signup|landing|landing2|landing3)(?:\/([a-z0-9-]+))?$/.exec(
      path,
    )
  if (!member) return null
  const [, id = '', variant = '', slug] = member
  if (variant === 'signup' || variant === 'landing') {
    return slug === undefined ? { member: Number(id), variant } : null
  }
  return isMemberLanding(variant) && slug !== undefined && parseSlug(variant, slug)
    ? { member: Number(id), variant }
    : null
}

/**
 * A public page a guest's first load gets prerendered by the server and
 * hydrated by the light entry (app/lander.tsx), without the router: home,
 * login, sign-up and a profile (docs/performance.md, "Main-thread JavaScript"). Any other
 * path is the app's.
 */
export type GuestPage = 'home' | 'login' | 'signup' | { member: number }

export function guestPageOf(path: string): GuestPage | null {
  switch (path) {
    case '/':
      return 'home'
    case '/login':
      return 'login'
    case '/signup':
      return 'signup'
  }
  // As the app's profile route takes it (app/ui/member-id.ts): 1 to 9 digits here.
  const member = /^\/members\/([1-9][0-9]{0,8})$/.exec(path)
  return member ? { member: Number(member[1]) } : null
}

export { parseMemberId } from './member-id.ts'
