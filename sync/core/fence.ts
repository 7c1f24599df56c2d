import type { LocalDb } from '../store/store.ts'
import { fail, type Result } from './errors.ts'

/**
 * Runs a request whose answer will be written to the store, and drops the
 * answer when the store was wiped (logout, another member) while it was in
 * flight: a late answer must not put a member's data back on the device.
 */
export async function fenced<T>(
  db: LocalDb,
  request: () => Promise<Result<T>>,
): Promise<Result<T>> {
  const epoch = db.epoch
  const res = await request()
  if (db.epoch !== epoch) {
    return fail({ code: 'logged_out', message: 'the local store was wiped meanwhile' })
  }
  return res
}
