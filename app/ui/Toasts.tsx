import { X } from 'lucide-react'
import { createPortal } from 'react-dom'
import { m } from '../../messages/paraglide/messages.js'
import { TOASTS, teleports } from './root-constants.ts'
import { dismissToast, useToasts } from './toasts.ts'
import { useIsClient } from './use-client.ts'

/** Spec §9: toasts top-end, container at most 350 px wide (TOASTS), teleported out of #root. */
export function Toasts() {
  const toasts = useToasts()
  const client = useIsClient()
  // A portal has no place in server HTML: mounted once the page is the browser's.
  if (!client) return null
  return createPortal(
    <section
      className="toasts"
      aria-label={m.toasts_label()}
      aria-live="polite"
      data-position={TOASTS.position}
      style={{ maxWidth: TOASTS.maxWidthPx }}
    >
      {toasts.map((t) => (
        <div
          key={t.id}
          className={`toast toast--${t.kind}`}
          role={t.kind === 'danger' ? 'alert' : 'status'}
        >
          {t.title && <strong className="toast__title">{t.title}</strong>}
          <p className="toast__body">{t.body}</p>
          <button
            type="button"
            className="toast__close"
            aria-label={m.toast_close()}
            onClick={() => dismissToast(t.id)}
          >
            <X className="icon" aria-hidden="true" />
          </button>
        </div>
      ))}
    </section>,
    teleports(),
  )
}
