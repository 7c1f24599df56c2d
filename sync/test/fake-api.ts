// Test helpers for the sync suites: contract-shaped fixtures and a stubbed
// fetch that plays the API, including a likes server that applies each
// client id at most once (as api/likes/routes.ts does).
import { vi } from 'vitest'
import type { Profile, Settings, User } from '../../api/contract/index.ts'

export const profile = (id: number, over: Partial<Profile> = {}): Profile => ({
  id,
  name: `Member ${id}`,
  age: 30,
  city: 'Utrecht',
  country: 'NL',
  countryregion: 'NL-UT',
  gender: 'female',
  personal: null,
  images: [{ id: id * 10, thumb_filename: `t${id}.jpg` }],
  main_image: { thumb_filename: `t${id}.jpg` },
  fictional: false,
  verified: false,
  ...over,
})

export const user = (id = 1, over: Partial<User> = {}): User => ({
  email: `member${id}@example.com`,
  profile: { ...profile(id, { gender: 'male' }), date_of_birth: '1990-01-01', language: 'en' },
  main_image: null,
  paid_user: false,
  signup_date: '2024-01-01T00:00:00.000Z',
  mailprovider: 0,
  fictional_icon: false,
  ...over,
})

/** Public settings as GET /api/settings.php answers them. */
export const settings = (over: Partial<Settings> = {}): Settings => ({
  domain_language: 'en',
  region_data: { NL: [{ id: 'NL-UT', name: 'Utrecht' }] },
  signups: 'all',
  logged_out_search: 'none',
  logged_out_search_trafficsource: 'none',
  niche: 1,
  template: 'classic',
  template_flags: {
    navigation: true,
    chat: true,
    likes: true,
    notifications: true,
    footer_copyright: true,
  },
  push_pub: 'key',
  geoip_selected_country: null,
  geoip_country: null,
  minimum_message_costs: {},
  fictional_icon: true,
  support_phone: '',
  company_name: 'Amora B.V.',
  company_address: '',
  company_kvk: '',
  company_city: '',
  company_country: 'NL',
  company_tradenames: [],
  company_vat_numbers: [],
  delete_discount: 0,
  name: 'Amora',
  countries: [{ id: 'NL', name: 'Netherlands' }],
  visible_profile_fields: ['height'],
  visible_profile_notes: ['personal'],
  search_fields: [],
  cdn_prefix: '',
  member_resell: ['cams'],
  photo_premoderation: false,
  age_assurance: 'off',
  fake_reports_to_hide: 3,
  face_match: 'assist',
  photo_message_credits: 30,
  voice_message_credits: 20,
  private_photo_credits: 50,
  ...over,
})

export type Handler = (request: {
  url: URL
  init: RequestInit
  body: unknown
}) => Response | Promise<Response>

export const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })
export const forbidden = () => reply({ error: 'not_logged_in' }, 403)
export const offline: Handler = () => Promise.reject(new TypeError('Failed to fetch'))

export interface Recorded {
  url: URL
  method: string
  body: unknown
}

/**
 * Stubs global fetch with one handler per "METHOD path" or "path" (any
 * method); anything else is a 404. Records every request.
 */
export function stubServer(routes: Record<string, Handler>) {
  const requests: Recorded[] = []
  const fetch = vi.fn(async (input: URL | string, init: RequestInit = {}) => {
    const url = new URL(String(input))
    const method = init.method ?? 'GET'
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined
    requests.push({ url, method, body })
    const handler = routes[`${method} ${url.pathname}`] ?? routes[url.pathname]
    return handler ? handler({ url, init, body }) : reply({ error: 'not_found' }, 404)
  })
  vi.stubGlobal('fetch', fetch)
  const calls = (key: string) =>
    requests.filter((r) => `${r.method} ${r.url.pathname}` === key || r.url.pathname === key)
  return { requests, calls, routes }
}

const field = (body: unknown, key: string): unknown =>
  typeof body === 'object' && body !== null ? Reflect.get(body, key) : undefined

/**
 * A likes server: who the member liked, who liked them (with the new flag),
 * and the client ids already applied with their first answer.
 */
export function likesServer(given: number[] = [], likedBy: { id: number; new: boolean }[] = []) {
  const state = {
    given: [...given],
    likedBy: likedBy.map((l) => ({ ...l })),
    applied: new Map<string, { profile: number; liked: boolean }>(),
    /** How many times a like/unlike changed the data (a replay does not). */
    changes: 0,
  }
  const setLike = (liked: boolean): Handler => {
    return ({ body }) => {
      const id = Number(field(body, 'profile'))
      const clientId = String(field(body, 'client_id'))
      const first = state.applied.get(clientId)
      if (first) return reply(first)
      if (id === 404) return reply({ error: 'not_found' }, 404)
      const has = state.given.includes(id)
      if (liked && !has) state.given.unshift(id)
      if (!liked && has) state.given = state.given.filter((g) => g !== id)
      state.changes++
      const answer = { profile: id, liked }
      state.applied.set(clientId, answer)
      return reply(answer)
    }
  }
  const routes: Record<string, Handler> = {
    'GET /api/likes.php': () =>
      reply({
        profiles: state.given.map((id) => profile(id)),
        liked_ids: [...state.given],
        counts: {
          given: state.given.length,
          received: state.likedBy.length,
          received_new: state.likedBy.filter((l) => l.new).length,
        },
        paging: { page: 1, pp: 48 },
        liked_by: [...state.likedBy]
          .sort((a, b) => Number(b.new) - Number(a.new))
          .map((l) => ({
            id: l.id,
            like_new: l.new,
            created_at: '2024-06-01T12:00:00.000Z',
            profile: profile(l.id),
          })),
      }),
    'POST /api/likes.php': setLike(true),
    'DELETE /api/likes.php': setLike(false),
    'PUT /api/likes.php': ({ body }) => {
      const id = Number(field(body, 'profile'))
      for (const l of state.likedBy) if (l.id === id) l.new = false
      return reply({ profile: id, like_new: false })
    },
  }
  return { state, routes }
}

/** Lets the stubbed fetch and fake-indexeddb (which runs on setImmediate) finish. */
export const settle = async () => {
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve))
}

/** Moves the fake clock by `ms`, then lets the work the timers started finish. */
export const advance = async (ms: number) => {
  await vi.advanceTimersByTimeAsync(ms)
  await settle()
}
