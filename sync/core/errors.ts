/**
 * Errors cross the worker boundary as plain data with a stable code
 * (instanceof does not survive postMessage).
 */
export interface SyncError {
  code:
    | 'offline'
    | 'not_logged_in'
    | 'invalid_credentials'
    | 'invalid_input'
    | 'bad_response'
    | 'server_error'
    | (string & {})
  message: string
  status?: number
  field?: string
  /** The answer's Retry-After in seconds (a 429 or 503 says when to try again). */
  retryAfterS?: number
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: SyncError }

export const ok = <T>(value: T): Result<T> => ({ ok: true, value })
export const fail = <T>(error: SyncError): Result<T> => ({ ok: false, error })
