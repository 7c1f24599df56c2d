// What the member page's actions (members.$memberId.tsx) share: the reason
// every action asks for, and the message for one that failed.
import { m } from '../../../../../../messages/paraglide/messages.js'
import type { CallResult } from '../../../../../data/console-client.ts'

/** A form's client id: the server applies one id once (a double click, a retry). */
export const newClientId = () => crypto.randomUUID()

/** The message for a failed action (or '' for one that worked). */
export function memberFailure(res: CallResult<unknown>): string {
  if (res.ok) return ''
  if (res.error === 'insufficient_credits') return m.op_mem_insufficient()
  if (res.error === 'refund_too_large') return m.op_mem_refund_too_large()
  if (res.status === 400 || res.status === 422) return m.op_check_fields()
  return m.error_generic()
}

/** Asks for the audit log's reason; null when the staff member cancels. */
export const askReason = () => {
  const reason = window.prompt(m.op_reason_prompt())?.trim()
  return reason ? reason : null
}
