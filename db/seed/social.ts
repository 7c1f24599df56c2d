// Likes and conversations between the seeded members, planned in memory once
// every member has an id. The demo member gets a hand-shaped share so every
// screen (likes given, likes received, chats, unread badges) has content.
import type { likes } from '../schema/index.ts'
import { CHAT_NUDGE, CHAT_SCRIPTS, type Gender } from './names.ts'
import type { Rng } from './random.ts'

export type LikeRow = typeof likes.$inferInsert

export interface Person {
  id: number
  gender: Gender
  country: string
  signupDate: Date
}

export interface PlannedMessage {
  fromDemo: boolean
  body: string
  createdAt: Date
}

export interface PlannedConversation {
  partnerId: number
  messages: PlannedMessage[]
  /** Trailing messages from the partner the demo member has not read yet. */
  demoUnread: number
  /** Trailing messages from the demo member the partner has not read yet. */
  partnerUnread: number
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** A moment between `from` and `to`. */
const between = (rng: Rng, from: number, to: number) => new Date(from + (to - from) * rng.next())

/** The demo member's likes: ~15 given, ~12 received, some of them mutual. */
export function planDemoLikes(rng: Rng, demo: Person, others: Person[], now: Date): LikeRow[] {
  const women = others.filter((p) => p.gender === 'female')
  const nearby = women.filter((p) => p.country === 'NL' || p.country === 'BE')
  const far = women.filter((p) => p.country !== 'NL' && p.country !== 'BE')
  const since = demo.signupDate.getTime()
  const given = [...rng.sample(nearby, 11), ...rng.sample(far, 4)]
  const rows: LikeRow[] = given.map((p) => ({
    likerId: demo.id,
    likedId: p.id,
    createdAt: between(rng, since, now.getTime()),
    isNew: rng.chance(0.4),
  }))
  // Four who liked back (mutual), eight more who liked him first; five of
  // them are still unopened (spec §4: new likes first, with a badge).
  const givenIds = new Set(given.map((p) => p.id))
  const unliked = nearby.filter((p) => !givenIds.has(p.id))
  const fans = rng.sample([...given.slice(0, 4), ...rng.sample(unliked, 8)], 12)
  fans.forEach((p, i) => {
    const isNew = i < 5
    rows.push({
      likerId: p.id,
      likedId: demo.id,
      createdAt: isNew
        ? between(rng, now.getTime() - 3 * DAY, now.getTime())
        : between(rng, since, now.getTime() - 3 * DAY),
      isNew,
    })
  })
  return rows
}

/** Likes among the other members: mostly across genders, after both signed up. */
export function planOtherLikes(rng: Rng, others: Person[], count: number, now: Date): LikeRow[] {
  const byGender = {
    female: others.filter((p) => p.gender === 'female'),
    male: others.filter((p) => p.gender === 'male'),
  }
  const seen = new Set<string>()
  const rows: LikeRow[] = []
  // Bounded so a tiny member list cannot loop forever looking for new pairs.
  for (let tries = 0; rows.length < count && tries < count * 5; tries++) {
    const liker = rng.pick(others)
    const wanted: Gender = rng.chance(0.85)
      ? liker.gender === 'male'
        ? 'female'
        : 'male'
      : liker.gender
    const pool = byGender[wanted].length > 0 ? byGender[wanted] : others
    const liked = rng.pick(pool)
    const key = `${liker.id}:${liked.id}`
    if (liked.id === liker.id || seen.has(key)) continue
    seen.add(key)
    const from = Math.max(liker.signupDate.getTime(), liked.signupDate.getTime())
    rows.push({
      likerId: liker.id,
      likedId: liked.id,
      createdAt: between(rng, from, now.getTime()),
      isNew: rng.chance(0.3),
    })
  }
  return rows
}

/**
 * Chats for the demo member, newest first, each following one script with
 * strict turns. The `unreadChats` newest end with lines from the partner that
 * he has not read (the newest with a second, nudging line), so the chat list
 * and the install badge show unread counts.
 */
export function planConversations(
  rng: Rng,
  partners: Person[],
  now: Date,
  unreadChats = 2,
): PlannedConversation[] {
  return partners.map((partner, k) => {
    const script = CHAT_SCRIPTS[k % CHAT_SCRIPTS.length]!
    const partnerStarts = rng.chance(0.5)
    let length = rng.int(3, Math.min(10, script.length))
    const unread = k < unreadChats
    // Line i is the partner's when i is even and she opened, or odd and he did.
    const partnersLine = (i: number) => (i % 2 === 0) === partnerStarts
    if (unread && !partnersLine(length - 1)) length += length < script.length ? 1 : -1
    const lines = script.slice(0, length).map((body, i) => ({ body, fromDemo: !partnersLine(i) }))
    if (k === 0 && unread) lines.push({ body: CHAT_NUDGE, fromDemo: false })
    // The newest chat ended minutes ago, older ones up to about five days ago.
    let at = now.getTime() - (k * 20 * HOUR + rng.int(5, 240) * MINUTE)
    const times: number[] = []
    for (let i = 0; i < lines.length; i++) {
      times.unshift(at)
      at -= rng.int(2, 90) * MINUTE
    }
    const messages = lines.map((line, i) => ({
      ...line,
      createdAt: new Date(times[i] ?? now.getTime()),
    }))
    const trailing = (fromDemo: boolean) => {
      let n = 0
      for (let i = messages.length - 1; i >= 0 && messages[i]?.fromDemo === fromDemo; i--) n++
      return n
    }
    return {
      partnerId: partner.id,
      messages,
      demoUnread: unread ? trailing(false) : 0,
      partnerUnread: trailing(true),
    }
  })
}
