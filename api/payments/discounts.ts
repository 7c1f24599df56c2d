// Discount codes (spec §3: normal, welcome, time bonus; the welcome or time
// bonus one is active; delete_discount). A code's effect is extra credits
// (bonus_percent) or money off (percent_off). The welcome code and the
// account-deletion offer are personal codes, made the first time they are
// asked for (one per member, under a unique index) and valid for a week.
import { randomBytes } from 'node:crypto'
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { discountCodes } from '../../db/schema/index.ts'
import type { Discount } from '../contract/index.ts'
import { WELCOME_DAYS } from '../contract/rules/payments.ts'
import { ApiFailure } from '../http/errors.ts'
import { memberFields } from '../shared/members.ts'

type Row = typeof discountCodes.$inferSelect
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Extra credits of the welcome code, in percent of the package's credits. */
export const WELCOME_BONUS_PERCENT = 50
const DAY_MS = 24 * 60 * 60_000

export const toDiscount = (r: Row): Discount => ({
  code: r.code,
  kind: r.kind as Discount['kind'],
  bonus_percent: r.bonusPercent,
  percent_off: r.percentOff,
  ends_at: r.endsAt?.toISOString() ?? null,
})

const newCode = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex').toUpperCase()}`

async function hasPaid(db: Db, memberId: number): Promise<boolean> {
  const me = await memberFields(db, memberId, ['paidUser'])
  return me?.paidUser ?? false
}

/** A personal code of this member of `kind`, made once (a race makes one, both read it). */
async function personal(
  db: Db,
  memberId: number,
  kind: 'welcome' | 'normal',
  effect: { bonusPercent?: number; percentOff?: number },
  now: Date,
): Promise<Row | null> {
  const mine = and(eq(discountCodes.memberId, memberId), eq(discountCodes.kind, kind))
  await db
    .insert(discountCodes)
    .values({
      code: newCode(kind === 'welcome' ? 'WELCOME' : 'STAY'),
      kind,
      memberId,
      bonusPercent: effect.bonusPercent ?? null,
      percentOff: effect.percentOff ?? null,
      endsAt: new Date(now.getTime() + WELCOME_DAYS * DAY_MS),
      maxUses: 1,
    })
    .onConflictDoNothing()
  const [row] = await db.select().from(discountCodes).where(mine)
  return row ?? null
}

const live = (r: Row, now: Date) =>
  (r.endsAt === null || r.endsAt > now) && (r.maxUses === null || r.uses < r.maxUses)

/** The welcome code of a member who has not bought yet; null once they have, or when it ran out. */
export async function welcomeCode(db: Db, memberId: number, now = new Date()) {
  if (await hasPaid(db, memberId)) return null
  const row = await personal(db, memberId, 'welcome', { bonusPercent: WELCOME_BONUS_PERCENT }, now)
  return row && live(row, now) ? row : null
}

/** The operator's time bonus running now (the latest ending first), or null. */
export async function timeBonus(db: Db, now = new Date()) {
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(
      and(
        eq(discountCodes.kind, 'time_bonus'),
        isNull(discountCodes.memberId),
        gt(discountCodes.endsAt, now),
        or(isNull(discountCodes.maxUses), sql`${discountCodes.uses} < ${discountCodes.maxUses}`),
      ),
    )
    .orderBy(desc(discountCodes.endsAt))
    .limit(1)
  return row ?? null
}

/** Spec §3: the active discount is the time bonus if one runs, else the member's welcome code. */
export async function activeDiscount(db: Db, memberId: number, now = new Date()) {
  return (await timeBonus(db, now)) ?? (await welcomeCode(db, memberId, now))
}

/** The account-deletion offer (settings.delete_discount percent off); null when the operator set none. */
export async function deleteOffer(db: Db, memberId: number, percent: number, now = new Date()) {
  if (!(percent >= 1 && percent <= 90)) return null
  const row = await personal(db, memberId, 'normal', { percentOff: percent }, now)
  return row && live(row, now) ? row : null
}

/** A code as typed, checked for this member: 404 unknown, 410 ended, 409 used up, 403 not theirs. */
export async function checkCode(db: Db, memberId: number, code: string, now = new Date()) {
  const [row] = await db.select().from(discountCodes).where(eq(discountCodes.code, code))
  const field = 'discount_code'
  if (!row) throw new ApiFailure(404, 'discount_not_found', field, 'no such discount code')
  if (row.memberId !== null && row.memberId !== memberId)
    throw new ApiFailure(403, 'discount_not_for_you', field, 'this code belongs to someone else')
  if (row.kind === 'welcome' && (await hasPaid(db, memberId)))
    throw new ApiFailure(
      403,
      'discount_not_for_you',
      field,
      'the welcome code is for a first purchase',
    )
  if (row.endsAt !== null && row.endsAt <= now)
    throw new ApiFailure(410, 'discount_expired', field, 'this code has ended')
  if (row.maxUses !== null && row.uses >= row.maxUses)
    throw new ApiFailure(409, 'discount_used_up', field, 'this code has been used up')
  return row
}

/**
 * Reserves one use of a code in the transaction that inserts the order; false
 * when the last use went to another order meanwhile. The conditional update
 * (as the ledger does) is what keeps max_uses under concurrency: a racing
 * order waits on the code's row and then finds `uses < max_uses` false.
 */
export async function reserveCodeUse(tx: Tx, code: string): Promise<boolean> {
  const rows = await tx
    .update(discountCodes)
    .set({ uses: sql`${discountCodes.uses} + 1` })
    .where(
      and(
        eq(discountCodes.code, code),
        or(isNull(discountCodes.maxUses), sql`${discountCodes.uses} < ${discountCodes.maxUses}`),
      ),
    )
    .returning({ code: discountCodes.code })
  return rows.length > 0
}

/**
 * Gives back the use an order reserved (never below 0). Call it only in the
 * transaction of the order's own pending → failed/canceled/expired update, so
 * it runs once per order however often the provider's word arrives.
 */
export async function releaseCodeUse(tx: Tx, code: string): Promise<void> {
  await tx
    .update(discountCodes)
    .set({ uses: sql`greatest(${discountCodes.uses} - 1, 0)` })
    .where(eq(discountCodes.code, code))
}
