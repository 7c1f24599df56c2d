import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import * as messages from './paraglide/messages.js'

// Spec §1/§4: every UI text in seven languages, written by a native speaker,
// never English left behind. The locale files are the source of truth; these
// checks read them as they are stored. They hold the server's texts too (one
// translation system): the mails (`mail_<kind>_<part>`, api/mail/texts.ts)
// and the push notifications (`push_<kind>_<part>`, api/push/texts.ts).

type Variant = { declarations?: string[]; selectors?: string[]; match: Record<string, string> }
type Message = string | Variant[]
type Catalogue = Record<string, Message>

const LOCALES = ['nl', 'de', 'it', 'fr', 'es', 'pl'] as const

function load(locale: string): Catalogue {
  const raw = JSON.parse(readFileSync(new URL(`./${locale}.json`, import.meta.url), 'utf8'))
  delete raw.$schema
  return raw
}

const en = load('en')
const catalogues = Object.fromEntries(LOCALES.map((l) => [l, load(l)])) as Record<
  (typeof LOCALES)[number],
  Catalogue
>

/** The brand, the same in every language. */
const keys = (list: string) => ['app_name', ...list.split(' ')]

/**
 * Texts that are rightly the same as English in a language: the brand, and
 * words that language took over as they are. Kept small on purpose: every
 * entry is a text a native speaker would write exactly so.
 */
const SAME_AS_ENGLISH: Record<(typeof LOCALES)[number], string[]> = {
  // "Link" (a scam signal) is the Dutch, Italian and Polish word too.
  // The console: "Console" (nl, it, fr), "Moderator" (nl, pl), "Support" (nl, de,
  // fr), "Status" (nl, de), "Admin" and "Name" (de), "Staff" (it), "Finance"
  // and "Action" (fr) are the words used there too.
  // Dutch and German took over "chat", "likes" and "single" (Dutch "credits" too); "Home", "Man",
  // "Name" and "Region" are their own words. "Cookies" is the word in nl, de,
  // fr and es; "Privacy" in nl and it.
  nl: keys(
    'op_mod_signal_link nav_home nav_chats chats_title chat_page_title_unknown nav_likes likes_title signup_gender_male fv_relationship_single credits_package_credits private_photo_price private_photo_price_money price_credits price_credits_money credits_per_credit gift_champagne traffic_privacy_link pages_cookies_title theme_menu op_nav_label op_role_moderator op_role_support op_col_state privacy_title',
  ),
  de: keys(
    'nav_chats chats_title chat_page_title_unknown nav_likes likes_title signup_name filter_region signup_region fv_relationship_single pages_cookies_title op_mod_nav_queue op_role_support op_role_admin op_col_name op_col_state gift_rose',
  ),
  // Italian says "home", "password", "chat" and "single". A rose is "Rose" in
  // German and French; champagne is "champagne" in nl, it and fr.
  it: keys(
    'op_mod_signal_link nav_home login_password signup_password chat_page_title_unknown fv_relationship_single traffic_privacy_link theme_menu op_nav_label op_nav_staff op_staff_title privacy_title gift_champagne',
  ),
  // "Menu" is the Dutch, Italian, French and Polish word too.
  // French spells these words like English.
  fr: keys(
    'toasts_label paging_label nav_likes likes_title notifications_title profile_photos chat_messages_label pages_cookies_title theme_menu op_mod_photo op_mod_photo_alt op_nav_label op_role_support op_role_finance op_col_action op_site_report_site gift_rose gift_champagne chat_photo_preview',
  ),
  es: keys(
    'nav_chats chats_title chat_start_error_title chat_page_title_unknown pages_cookies_title',
  ),
  pl: keys('filter_region theme_menu op_role_moderator op_mod_signal_link'),
}

/** Placeholder names a message takes: `{x}` in a text, `input x` in a variant message. */
function inputs(message: Message): string[] {
  if (typeof message === 'string') return placeholders(message)
  const names = message.flatMap((v) =>
    (v.declarations ?? []).filter((d) => d.startsWith('input ')).map((d) => d.slice(6).trim()),
  )
  return [...new Set(names)].sort()
}

function placeholders(text: string): string[] {
  // `\{` is a literal brace; `{#b}` and `{/b}` are markup, not inputs.
  const names = [...text.matchAll(/(?<!\\)\{([A-Za-z_]\w*)\}/g)].map((x) => x[1]!)
  return [...new Set(names)].sort()
}

/** Texts with no word in them (age ranges, heights) read the same in every language. */
const wordless = (message: Message) =>
  typeof message === 'string' && !/[A-Za-z]{3,}/.test(message.replace(/\{\w+\}/g, ''))

describe.each(LOCALES)('messages/%s.json', (locale) => {
  const catalogue = catalogues[locale]

  it('has every key of en.json', () => {
    expect(Object.keys(en).filter((k) => !(k in catalogue))).toEqual([])
  })

  it('has no key that en.json does not have', () => {
    expect(Object.keys(catalogue).filter((k) => !(k in en))).toEqual([])
  })

  it('takes the same placeholders as English in every text', () => {
    const differing = Object.keys(en)
      .filter((k) => k in catalogue)
      .filter((k) => inputs(catalogue[k]!).join() !== inputs(en[k]!).join())
      .map((k) => `${k}: ${inputs(catalogue[k]!).join()} (en: ${inputs(en[k]!).join()})`)
    expect(differing).toEqual([])
  })

  it('uses in each variant only the names the message declares, with a catch-all variant', () => {
    const wrong: string[] = []
    for (const [key, message] of Object.entries(catalogue)) {
      if (typeof message === 'string') continue
      for (const v of message) {
        const declared = new Set(
          (v.declarations ?? []).map((d) => d.replace(/^(input|local)\s+/, '').split(/[\s=]/)[0]),
        )
        for (const text of Object.values(v.match))
          for (const name of placeholders(text))
            if (!declared.has(name)) wrong.push(`${key}: {${name}}`)
        if (!Object.keys(v.match).some((k) => /^(\w+=\*(,\s*)?)+$/.test(k)))
          wrong.push(`${key}: no catch-all variant`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('is not English where a native speaker would write something else', () => {
    const allowed = new Set(SAME_AS_ENGLISH[locale])
    const same = Object.keys(en).filter(
      (k) =>
        JSON.stringify(catalogue[k]) === JSON.stringify(en[k]) &&
        !allowed.has(k) &&
        !wordless(en[k]!),
    )
    expect(same).toEqual([])
  })

  it('keeps its allow-list true: every allowed key is still the same as English', () => {
    const stale = SAME_AS_ENGLISH[locale].filter(
      (k) => JSON.stringify(catalogue[k]) !== JSON.stringify(en[k]),
    )
    expect(stale).toEqual([])
  })

  it('renders every message with numbers in it, leaving no placeholder or "undefined" behind', () => {
    const broken: string[] = []
    const all = messages as unknown as Record<
      string,
      (i: Record<string, unknown>, o: { locale: string }) => string
    >
    for (const key of Object.keys(en)) {
      for (const n of [0, 1, 2, 5, 22, 1234]) {
        const args = Object.fromEntries(inputs(en[key]!).map((name) => [name, n]))
        const text = all[key]!(args, { locale })
        if (/undefined|NaN|\{|\}/.test(text)) broken.push(`${key}(${n}): ${text}`)
      }
    }
    expect(broken).toEqual([])
  })
})

/** The messages a server module reads: the Paraglide modules it imports one by one. */
const serverKeys = (path: string) =>
  [
    ...readFileSync(new URL(path, import.meta.url), 'utf8').matchAll(
      /paraglide\/messages\/(\w+)\.js'/g,
    ),
  ].map((x) => x[1]!)

describe('the server texts (mails and push notifications)', () => {
  const keys = [...serverKeys('../api/mail/messages.ts'), ...serverKeys('../api/push/texts.ts')]

  it('are found in the server modules', () => {
    expect(keys.filter((k) => k.startsWith('mail_')).length).toBeGreaterThan(100)
    expect(keys.filter((k) => k.startsWith('push_'))).toHaveLength(10)
  })

  it.each(['en', ...LOCALES])(
    'are all in messages/%s.json, with the placeholders of English',
    (locale) => {
      const catalogue = locale === 'en' ? en : catalogues[locale as (typeof LOCALES)[number]]
      expect(keys.filter((k) => !(k in catalogue))).toEqual([])
      const differing = keys
        .filter((k) => k in catalogue && inputs(catalogue[k]!).join() !== inputs(en[k]!).join())
        .map((k) => `${k}: ${inputs(catalogue[k]!).join()} (en: ${inputs(en[k]!).join()})`)
      expect(differing).toEqual([])
    },
  )
})
