// The member's signed-in devices on /profile: browser and system, when they
// signed in and were last active; log out one device or all others.

import type { SessionEntry } from '../../../../../../api/contract/index.ts'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { getLocale } from '../../../../../../messages/paraglide/runtime.js'
import { useSessions } from '../../../../../data/useSessions.ts'

function deviceName({ browser, os }: SessionEntry): string {
  if (browser && os) return m.sessions_device({ browser, os })
  return browser ?? os ?? m.sessions_unknown_device()
}

export function Sessions() {
  const { sessions, error, busy, end, endOthers } = useSessions()
  const date = new Intl.DateTimeFormat(getLocale(), { dateStyle: 'medium', timeStyle: 'short' })
  const others = sessions?.filter((s) => !s.current) ?? []
  return (
    <section aria-labelledby="profile-sessions" className="sessions">
      <h2 id="profile-sessions">{m.sessions_title()}</h2>
      <p>{m.sessions_intro()}</p>
      {sessions === undefined ? (
        error ? (
          // Offline is an expected state of this page (spec: readable offline), not an alert.
          error.code === 'offline' ? (
            <p role="status">{m.sessions_offline()}</p>
          ) : (
            <p role="alert">{m.error_generic()}</p>
          )
        ) : (
          <p role="status">{m.loading()}</p>
        )
      ) : (
        <>
          <ul className="sessions__list">
            {sessions.map((s) => (
              <li key={s.id} className="sessions__item">
                <strong>{deviceName(s)}</strong>
                {s.current && <span className="badge">{m.sessions_this_device()}</span>}
                <small>
                  {m.sessions_signed_in({ date: date.format(new Date(s.created_at)) })}
                  {' · '}
                  {m.sessions_last_seen({ date: date.format(new Date(s.last_seen_at)) })}
                </small>
                {!s.current && (
                  <button
                    type="button"
                    className="link-button"
                    disabled={busy}
                    aria-label={m.sessions_end_named({ device: deviceName(s) })}
                    onClick={() => void end(s.id)}
                  >
                    {m.sessions_end()}
                  </button>
                )}
              </li>
            ))}
          </ul>
          {others.length > 0 ? (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void endOthers()}
            >
              {m.sessions_end_others()}
            </button>
          ) : (
            <p className="note">{m.sessions_none_else()}</p>
          )}
          {error && (
            <p role="alert">
              {error.code === 'offline' ? m.sessions_offline() : m.error_generic()}
            </p>
          )}
        </>
      )}
    </section>
  )
}
