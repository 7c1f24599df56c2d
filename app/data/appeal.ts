// The statement of reasons and its appeal, by the token of the mail: online
// only, without a session (a suspended member has none). The worker calls the
// endpoints by their entries in the table and parses the answers; it stores
// nothing of them (sync/traffic/handlers.ts).
import type { StatementResponse } from '../../api/contract/traffic.ts'
import { syncWorker } from '../../sync/client.ts'

export type { StatementResponse }

/** The statement, or null when the token is unknown or the API cannot be reached. */
export async function loadStatement(token: string): Promise<StatementResponse | null> {
  const res = await syncWorker().statement(token)
  return res.ok ? res.value : null
}

/** 'received', or the API's error code ('already_appealed', 'invalid_input', 'offline', ...). */
export async function sendAppeal(token: string, text: string): Promise<string> {
  const res = await syncWorker().appeal({ token, text })
  return res.ok ? 'received' : res.error.code
}
