// The statement of reasons and its appeal, by the token of the mail: plain
// requests to the API, online only, without a session (a suspended member
// has none), so they go around the sync worker.
import type { StatementResponse } from '../../api/contract/traffic.ts'

export type { StatementResponse }

export async function loadStatement(token: string): Promise<StatementResponse | null> {
  try {
    const res = await fetch(`/api/statement.php?token=${encodeURIComponent(token)}`, {
      cache: 'no-store',
    })
    return res.ok ? ((await res.json()) as StatementResponse) : null
  } catch {
    return null
  }
}

/** 'received', or the API's error code ('already_appealed', 'invalid_input', 'offline', ...). */
export async function sendAppeal(token: string, text: string): Promise<string> {
  try {
    const res = await fetch('/api/appeal.php', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, text }),
    })
    if (res.ok) return 'received'
    return ((await res.json().catch(() => null)) as { error?: string } | null)?.error ?? 'error'
  } catch {
    return 'offline'
  }
}
