// Demo data for a fresh installation: the published demo account plus a few
// thousand members with pictures, likes and chats, so every screen has
// something to show. Runs once: the demo account's existence is the marker,
// checked under the start-up lock, so of several processes starting at once
// on an empty database one seeds and the others find it done.
import { randomBytes } from 'node:crypto'
import { count, eq, sql } from 'drizzle-orm'
import { type Db, withStartLock } from '../client.ts'
import { refreshNewestMessages } from '../newest-message.ts'
import {
  conversationMembers,
  conversations,
  creditLedger,
  images,
  likes,
  members,
  messages,
} from '../schema/index.ts'
import { type PictureSink, saveAvatar } from './avatars.ts'
import { DEMO_EMAIL, DEMO_PASSWORD, demoSpec, type MemberSpec, memberSpec } from './people.ts'
import { mulberry32, type RandomSource, Rng } from './random.ts'
import { secondDemoSpec } from './second-demo.ts'
import { type Person, planConversations, planDemoLikes, planOtherLikes } from './social.ts'

export interface SeedOptions {
  /**
   * Where the pictures go: the site's picture store (a directory or an S3
   * bucket). They are put before the seed's transaction commits; a seed that
   * fails leaves unreferenced pictures under random names, never a row
   * without its picture, and a seed that finds the demo puts none.
   */
  pictures: PictureSink
  /** Members besides the demo account; default 2000. */
  members?: number
  /** The API's password hash (argon2id), injected so db/ never imports api/. */
  hashPassword: (password: string) => Promise<string>
  log?: (line: string) => void
  /** A seed for the built-in PRNG (mulberry32), or a generator returning [0, 1). */
  random?: number | RandomSource
  /**
   * Also create the second published demo login (demo2@example.com, same
   * password, paid, in Belgium; db/seed/second-demo.ts). Made after all
   * random members and without the PRNG, so everything else stays the same.
   */
  secondDemo?: boolean
  /**
   * A directory where rendered faces are kept between starts
   * (db/seed/avatars.ts, cachedPair); unset: every picture is rendered.
   */
  avatarCache?: string
}

export interface SeedResult {
  demoMemberId: number
  /** Members besides the demo account. */
  members: number
}

const BATCH = 500
/** Pictures rendered at once: enough to keep both cores and libuv's 4 threads busy. */
const RENDER_CONCURRENCY = 4
const DEFAULT_SEED = 20_240_601

/**
 * Seeds unless the demo account exists. Pass the database's own `db`, not a
 * transaction: the check and the seed run under its start-up lock.
 */
export function seedDemo(db: Db, opts: SeedOptions): Promise<SeedResult> {
  return withStartLock(db, () => seedUnlocked(db, opts))
}

async function seedUnlocked(db: Db, opts: SeedOptions): Promise<SeedResult> {
  const log = opts.log ?? (() => {})
  const existing = await findDemo(db)
  if (existing !== undefined) {
    const [row] = await db.select({ n: count() }).from(members)
    log('seed: demo data already present, nothing to do')
    return { demoMemberId: existing, members: Math.max(0, (row?.n ?? 1) - 1) }
  }

  const total = opts.members ?? 2000
  const rng = new Rng(
    typeof opts.random === 'function' ? opts.random : mulberry32(opts.random ?? DEFAULT_SEED),
  )
  const now = new Date()
  // Every other member shares one hash of a password nobody knows: argon2id
  // takes tens of milliseconds by design, too slow to run 2000 times.
  const [demoHash, sharedHash] = await Promise.all([
    opts.hashPassword(DEMO_PASSWORD),
    opts.hashPassword(randomBytes(24).toString('base64url')),
  ])
  const specs = [demoSpec(now, demoHash)]
  for (let i = 1; i <= total; i++) specs.push(memberSpec(rng, i, now, sharedHash))

  // One transaction: a half-finished seed would leave the demo account (the
  // "already seeded" marker) without its likes and chats.
  return db.transaction(async (tx) => {
    const ids = await insertMembers(tx, specs, log)
    await insertPictures(tx, specs, ids, opts, log)
    const demoMemberId = ids[0]!
    await insertSocial(tx, rng, specs, ids, now, log)
    if (opts.secondDemo) {
      // No likes or chats of her own: what she receives comes from real use.
      const second = [secondDemoSpec(now, demoHash)]
      const secondIds = await insertMembers(tx, second, () => {})
      await insertPictures(tx, second, secondIds, opts, log)
      log(`seed: second demo login ${second[0]?.row.email}`)
      await grantDemoCredits(tx, secondIds)
    }
    await grantDemoCredits(tx, [demoMemberId])
    return { demoMemberId, members: total }
  })
}

async function findDemo(db: Db): Promise<number | undefined> {
  const rows = await db
    .select({ id: members.id })
    .from(members)
    .where(eq(members.email, DEMO_EMAIL))
    .limit(1)
  return rows[0]?.id
}

/** Inserts members in batches; returns their ids in the order of `specs`. */
async function insertMembers(db: Db, specs: MemberSpec[], log: (l: string) => void) {
  const ids: number[] = []
  // The demo account rides along with the first batch; progress counts the others.
  for (let start = 0, end = BATCH + 1; start < specs.length; start = end, end += BATCH) {
    const batch = specs.slice(start, end)
    const rows = await db
      .insert(members)
      .values(batch.map((s) => s.row))
      .returning({ id: members.id, email: members.email })
    // RETURNING order is not promised by SQL, so match on the unique email.
    const byEmail = new Map(rows.map((r) => [r.email, r.id]))
    for (const s of batch) ids.push(byEmail.get(s.row.email)!)
    log(`seed: members ${ids.length - 1}/${specs.length - 1}`)
  }
  return ids
}

/** Runs `fn` over `items` with at most `limit` calls in flight. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await fn(items[i] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

/**
 * Renders every member's own pictures, a batch at a time, stores the image
 * rows and points each member's main_image_id at their first picture.
 */
async function insertPictures(
  db: Db,
  specs: MemberSpec[],
  ids: number[],
  { pictures, avatarCache }: Pick<SeedOptions, 'pictures' | 'avatarCache'>,
  log: (l: string) => void,
) {
  const jobs = specs.flatMap((spec, i) =>
    Array.from({ length: spec.pictures }, (_, n) => ({ spec, memberId: ids[i]!, n })),
  )
  let done = 0
  for (let i = 0; i < jobs.length; i += BATCH) {
    const rows = await pool(jobs.slice(i, i + BATCH), RENDER_CONCURRENCY, async (job) => {
      const seed = job.n === 0 ? job.spec.avatarSeed : `${job.spec.avatarSeed}-${job.n}`
      const names = await saveAvatar(pictures, seed, job.spec.row.gender, job.spec.age, avatarCache)
      const createdAt = new Date(job.spec.row.signupDate.getTime() + (job.n + 1) * 60_000)
      return { memberId: job.memberId, ...names, createdAt, main: job.n === 0 }
    })
    const inserted = await db
      .insert(images)
      .values(rows.map(({ main: _, ...row }) => row))
      .returning({ id: images.id, filename: images.filename })
    await setMainImages(db, rows, inserted)
    done += rows.length
    log(`seed: images ${done}/${jobs.length}`)
  }
}

/** Points each member at their first picture; one UPDATE per batch. */
async function setMainImages(
  db: Db,
  rows: { memberId: number; filename: string; main: boolean }[],
  inserted: { id: number; filename: string }[],
) {
  const idByFile = new Map(inserted.map((r) => [r.filename, r.id]))
  const pairs = rows
    .filter((r) => r.main)
    .map((r) => sql`(${r.memberId}::bigint, ${idByFile.get(r.filename)!}::bigint)`)
  if (pairs.length === 0) return
  await db.execute(sql`
    UPDATE members SET main_image_id = v.image_id
    FROM (VALUES ${sql.join(pairs, sql`, `)}) AS v(member_id, image_id)
    WHERE members.id = v.member_id`)
}

async function insertSocial(
  db: Db,
  rng: Rng,
  specs: MemberSpec[],
  ids: number[],
  now: Date,
  log: (l: string) => void,
) {
  const people: Person[] = specs.map((s, i) => ({
    id: ids[i]!,
    gender: s.row.gender,
    country: s.row.country,
    signupDate: s.row.signupDate,
  }))
  const [demo, ...others] = people as [Person, ...Person[]]
  const demoLikes = planDemoLikes(rng, demo, others, now)
  // About one like per member among the others, ~2000 rows by default.
  const otherLikes = planOtherLikes(rng, others, others.length, now)
  const all = [...demoLikes, ...otherLikes]
  for (let i = 0; i < all.length; i += BATCH) {
    await db
      .insert(likes)
      .values(all.slice(i, i + BATCH))
      .onConflictDoNothing()
  }
  log(`seed: likes ${all.length} (${demoLikes.length} involving the demo member)`)

  // Chat partners: the mutual likes first, then other fans, then anyone nearby.
  const liked = new Set(demoLikes.filter((l) => l.likerId === demo.id).map((l) => l.likedId))
  const fans = demoLikes.filter((l) => l.likedId === demo.id).map((l) => l.likerId)
  const order = [...fans.filter((id) => liked.has(id)), ...fans.filter((id) => !liked.has(id))]
  const byId = new Map(others.map((p) => [p.id, p]))
  const partners = order.map((id) => byId.get(id)!).slice(0, 6)
  const nearby = others.filter(
    (p) => p.gender === 'female' && (p.country === 'NL' || p.country === 'BE'),
  )
  for (const p of rng.sample(nearby, 6)) {
    if (partners.length < 6 && !partners.includes(p)) partners.push(p)
  }
  const plans = planConversations(rng, partners, now)
  let messageCount = 0
  for (const plan of plans) {
    const last = plan.messages[plan.messages.length - 1]
    const [conversation] = await db
      .insert(conversations)
      .values({
        memberLow: Math.min(demo.id, plan.partnerId),
        memberHigh: Math.max(demo.id, plan.partnerId),
        createdAt: plan.messages[0]?.createdAt ?? now,
        lastMessageAt: last?.createdAt ?? null,
      })
      .returning({ id: conversations.id })
    const conversationId = conversation!.id
    await db.insert(conversationMembers).values([
      { conversationId, memberId: demo.id, unreadCount: plan.demoUnread },
      { conversationId, memberId: plan.partnerId, unreadCount: plan.partnerUnread },
    ])
    await db.insert(messages).values(
      plan.messages.map((m) => ({
        conversationId,
        senderId: m.fromDemo ? demo.id : plan.partnerId,
        body: m.body,
        createdAt: m.createdAt,
      })),
    )
    messageCount += plan.messages.length
  }
  await refreshNewestMessages(db)
  const unread = plans.filter((p) => p.demoUnread > 0).length
  log(`seed: conversations ${plans.length} (${messageCount} messages, ${unread} unread)`)
}

/** Credits the demo logins start with, so messaging can be tried at once. */
export const DEMO_CREDITS = 500

/**
 * Gives the demo logins their starting credits the way the site moves any
 * credits: the balance and a ledger row (a bonus) together, so the balance
 * equals the ledger sum from the start.
 */
async function grantDemoCredits(tx: Db, ids: number[]) {
  for (const memberId of ids) {
    await tx.update(members).set({ credits: DEMO_CREDITS }).where(eq(members.id, memberId))
    await tx.insert(creditLedger).values({
      memberId,
      delta: DEMO_CREDITS,
      reason: 'bonus',
      reference: 'demo credits',
      balanceAfter: DEMO_CREDITS,
    })
  }
}
