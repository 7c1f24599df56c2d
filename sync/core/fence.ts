import Dexie from 'dexie'
import type { LocalDb } from '../store/store.ts'
import { fail, ok, type Result } from './errors.ts'

/**
 * Runs a request whose answer is written to the store, and drops the answer
 * when the store was wiped (logout, another member) after `epoch` (by
 * default: when the request was sent): a late answer must not put a
 * member's data back on the device. `write` runs under writeUnder, so the
 * check is in the writes' own transaction and no wipe can come between the
 * check and a write. `write` touches only the store (a Dexie transaction
 * ends at any other wait). A failed answer is handed back as it came, or as
 * logged_out after a wipe.
 */
export async function fenced<T, R>(
  db: LocalDb,
  request: () => Promise<Result<T>>,
  write: (value: T) => Promise<R>,
  epoch: number = db.epoch,
): Promise<Result<R>> {
  const res = await request()
  if (!res.ok) return db.epoch === epoch ? res : wipedMeanwhile()
  const written = await writeUnder(db, epoch, () => write(res.value))
  return written ? ok(written.value) : wipedMeanwhile()
}

/** The answer of a request whose store was wiped while it was in flight. */
export const wipedMeanwhile = <T>(): Result<T> =>
  fail({ code: 'logged_out', message: 'the local store was wiped meanwhile' })

/**
 * Writes an answer asked for at `epoch` only when no wipe came between: the
 * check and the writes are one transaction over the store's tables, so a
 * logout can come before it (the check fails, nothing is written) or after
 * it (the wipe clears what was written), never between two of its writes.
 * What `write` returned, or undefined when it did not run.
 */
async function writeUnder<R>(
  db: LocalDb,
  epoch: number,
  write: () => Promise<R>,
): Promise<{ value: R } | undefined> {
  // A transaction of its own, never a part of one the caller's async context
  // still carries: an answer is written after a request, by when that one
  // has ended (the outbox's revert asks for the credits from inside its own).
  return Dexie.ignoreTransaction(() =>
    db.transaction('rw', db.tables, async () =>
      db.epoch === epoch ? { value: await write() } : undefined,
    ),
  )
}
