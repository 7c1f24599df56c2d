// Idempotency of member actions (ARCHITECTURE "Data and sync"): every action
// that changes data carries a client-generated id, and the server applies each
// id at most once. A replay (the sync worker's outbox retrying after a lost
// response) gets the first answer back and changes nothing.
import { and, eq } from 'drizzle-orm'
import type { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { memberActions } from '../../db/schema/index.ts'
import { ApiFailure } from './errors.ts'

/** The transaction handle an effect runs in (a Db in every way that matters). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

export interface ActionKey {
  memberId: number
  /** The client-generated UUID of the action (contract ClientId). */
  clientId: string
  /**
   * What the action is. Callers put the target in it (`like:42`), so that an
   * id reused for another action or another target is refused with 422
   * rather than answered with an unrelated stored response.
   */
  kind: string
}

/** What the row holds while its effect runs; no other request ever reads it (see below). */
const PENDING = { pending: true }

/**
 * Runs `effect` at most once per (member, client id), in ONE transaction with
 * the record of it, and returns its response; a later call with the same key
 * returns the stored response without running anything.
 *
 * The record is inserted first. Two identical requests at once: on
 * PostgreSQL the second INSERT ... ON CONFLICT DO NOTHING waits on the first
 * transaction's uncommitted key; if that commits, the second inserts nothing
 * and its SELECT (a new snapshot under READ COMMITTED) reads the committed
 * response; if it rolls back (the effect threw), the second inserts and runs
 * the effect itself. PGlite has one connection and runs transactions one
 * after another, so the same holds trivially. An effect that throws leaves no
 * record, so a failed action can be retried with the same id.
 */
export async function runOnce<S extends z.ZodType>(
  db: Db,
  key: ActionKey,
  schema: S,
  effect: (tx: Tx) => Promise<z.output<S>>,
): Promise<z.output<S>> {
  return db.transaction(async (tx) => {
    const mine = and(
      eq(memberActions.memberId, key.memberId),
      eq(memberActions.clientId, key.clientId),
    )
    const claimed = await tx
      .insert(memberActions)
      .values({ ...key, response: PENDING })
      .onConflictDoNothing()
      .returning({ kind: memberActions.kind })
    if (claimed.length === 0) {
      const [prior] = await tx
        .select({ kind: memberActions.kind, response: memberActions.response })
        .from(memberActions)
        .where(mine)
      // Gone between the conflict and the read: only a purge of old records
      // can do that; the client may simply try again.
      if (!prior) throw new ApiFailure(409, 'action_in_progress', 'client_id')
      // A key reused for another action: 422, as Stripe and the IETF
      // Idempotency-Key draft answer it (409 is theirs for "still running").
      if (prior.kind !== key.kind) throw new ApiFailure(422, 'client_id_reused', 'client_id')
      const stored = schema.safeParse(prior.response)
      if (!stored.success) {
        // A response stored by an older release that no longer fits the
        // contract: refuse the replay rather than apply the action twice.
        console.error('member_actions: stored response does not parse', key, stored.error.issues)
        throw new ApiFailure(409, 'replay_unavailable', 'client_id')
      }
      return stored.data
    }
    const response = await effect(tx)
    await tx.update(memberActions).set({ response }).where(mine)
    return response
  })
}
