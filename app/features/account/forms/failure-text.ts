import { m } from '../../../../messages/paraglide/messages.js'
import type { SyncError } from '../../../data/worker.ts'

/** The visitor-facing text of a failed worker call (spec §8: alert with the error). */
export function failureText(error: SyncError): string {
  switch (error.code) {
    case 'offline':
      return m.error_offline()
    case 'rate_limited':
      return m.error_rate_limited()
    case 'weak_password':
      return m.error_weak_password()
    default:
      return m.error_generic()
  }
}
