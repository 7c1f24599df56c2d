// Who the demo members are: profiles generated in memory from the PRNG, before
// anything touches the database.

import { COUNTRIES, type Country, languageOf } from '../reference/geo.ts'
import type { members } from '../schema/index.ts'
import {
  allFirstNames,
  FIRST_NAMES,
  type Gender,
  NOTE_SNIPPETS,
  OLDER_NOTE_SNIPPETS,
} from './names.ts'
import type { Rng } from './random.ts'

export type MemberRow = typeof members.$inferInsert

export interface MemberSpec {
  row: MemberRow & { email: string; gender: Gender; signupDate: Date }
  age: number
  /** DiceBear seed: reproducible pictures even though file names are random. */
  avatarSeed: string
  /** How many pictures to render; the first becomes the main image. */
  pictures: number
}

export const DEMO_EMAIL = 'demo@example.com'
export const DEMO_PASSWORD = 'demopassword'

const DAY = 86_400_000
const MINUTE = 60_000

/**
 * Rough share of members per country (percent). NL and BE are large because
 * the demo member lives in NL and searches NL or BE (spec §6 neighbours): with
 * 2000 members and 70% women that is about 220 women in NL and 110 in BE,
 * many pages of search results.
 */
const COUNTRY_WEIGHTS: Record<string, number> = {
  NL: 16,
  BE: 8,
  DE: 10,
  AT: 4,
  GB: 10,
  IE: 3,
  US: 14,
  CA: 5,
  AU: 5,
  NZ: 2,
  IT: 6,
  FR: 7,
  ES: 6,
  PL: 4,
}
const WEIGHTS = COUNTRIES.map((c) => COUNTRY_WEIGHTS[c.id] ?? 1)

/** Share of women: the demo member is a man, so his default search shows women. */
const FEMALE_SHARE = 0.7

/** YYYY-MM-DD of someone who is `age` today, born `daysBefore` days before that birthday. */
export function dateOfBirth(now: Date, age: number, daysBefore: number): string {
  const birthday = Date.UTC(now.getUTCFullYear() - age, now.getUTCMonth(), now.getUTCDate())
  return new Date(birthday - daysBefore * DAY).toISOString().slice(0, 10)
}

/** Most members are 22-50; the rest anywhere from 18 to 80. */
const randomAge = (rng: Rng) => (rng.chance(0.7) ? rng.int(22, 50) : rng.int(18, 80))

function note(rng: Rng, age: number): string {
  const snippets = age >= 45 ? [...NOTE_SNIPPETS, ...OLDER_NOTE_SNIPPETS] : NOTE_SNIPPETS
  return rng.sample(snippets, rng.int(1, 3)).join(' ')
}

function firstName(rng: Rng, gender: Gender, language: keyof typeof FIRST_NAMES): string {
  // Now and then a name from another language, as people move around.
  return rng.pick(rng.chance(0.85) ? FIRST_NAMES[language][gender] : allFirstNames(gender))
}

function place(rng: Rng, country: Country): { region: string; city: string } {
  // A quarter of Dutch members in the demo member's own province, so a
  // search narrowed to Noord-Holland is not empty.
  const home = country.id === 'NL' && rng.chance(0.25)
  const region = home
    ? (country.regions.find((r) => r.id === 'NL-NH') ?? rng.pick(country.regions))
    : rng.pick(country.regions)
  return { region: region.id, city: rng.pick(region.cities) }
}

/** The `index`-th ordinary member (1-based, it is also in the e-mail address). */
export function memberSpec(rng: Rng, index: number, now: Date, passwordHash: string): MemberSpec {
  const country = rng.weighted(COUNTRIES, WEIGHTS)
  const { region, city } = place(rng, country)
  const language = languageOf(country.id, region)
  const gender: Gender = rng.chance(FEMALE_SHARE) ? 'female' : 'male'
  const age = randomAge(rng)
  const signupDate = new Date(now.getTime() - rng.int(1 * 60, 365 * 24 * 60) * MINUTE)
  // Activity skews recent: cubing a uniform number puts most near zero.
  const idle = (now.getTime() - signupDate.getTime()) * rng.next() ** 3
  const fictional = rng.chance(0.05)
  const r = rng.next()
  const spec: MemberSpec = {
    row: {
      email: `member${index}@example.com`,
      passwordHash,
      name: firstName(rng, gender, language),
      gender,
      dateOfBirth: dateOfBirth(now, age, rng.int(0, 364)),
      country: country.id,
      countryregion: region,
      city,
      personal: note(rng, age),
      language,
      paidUser: !fictional && rng.chance(0.12),
      fictional,
      signupDate,
      lastActiveAt: new Date(now.getTime() - idle),
      activatedAt: new Date(signupDate.getTime() + rng.int(2, 30) * MINUTE),
      lastSignupStep: 7,
    },
    age,
    avatarSeed: `member-${index}-${rng.int(0, 1e9)}`,
    pictures: r < 0.85 ? 1 : r < 0.95 ? 2 : 3,
  }
  // Every fourth real member passed photo verification a day after
  // activating, so the demo shows the mark and the verified-only search. By
  // index, after the draws: the random sequence, and every other demo fact, stay.
  const activated = spec.row.activatedAt
  if (!fictional && index % 4 === 0 && activated)
    spec.row.verifiedAt = new Date(activated.getTime() + DAY)
  return spec
}

/** The account the README publishes: demo@example.com / demopassword. */
export function demoSpec(now: Date, passwordHash: string): MemberSpec {
  const signupDate = new Date(now.getTime() - 30 * DAY)
  return {
    row: {
      email: DEMO_EMAIL,
      passwordHash,
      name: 'Demo',
      gender: 'male',
      dateOfBirth: dateOfBirth(now, 35, 100),
      country: 'NL',
      countryregion: 'NL-NH',
      city: 'Amsterdam',
      personal:
        'Demo member of this site. Cyclist, coffee lover and always up for a walk along the canals.',
      // English so a visitor trying the demo reads the site in English.
      language: 'en',
      paidUser: false,
      fictional: false,
      signupDate,
      lastActiveAt: now,
      activatedAt: new Date(signupDate.getTime() + 5 * MINUTE),
      lastSignupStep: 7,
    },
    age: 35,
    avatarSeed: 'demo-member',
    pictures: 1,
  }
}
