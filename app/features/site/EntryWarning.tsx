import { useEffect, useId, useRef } from 'react'
import { createPortal } from 'react-dom'
import { m } from '../../../messages/paraglide/messages.js'
import { MODAL_Z_INDEX, teleports } from '../../ui/root-constants.ts'
import { ENTRY_CONFIRMED_KEY, setFlag } from './flags.ts'

/** Where a visitor who is not 18 goes instead. */
const LEAVE_URL = 'https://www.google.com/'

/**
 * Spec §2 site-entry warning: an adults-only (18+) notice before a niche
 * site's content, confirmed once (the flag remembers it on this device).
 * A modal <dialog>: the page behind is inert; Esc does not dismiss it, as
 * only confirming or leaving may.
 */
export function EntryWarning() {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const bodyId = useId()
  useEffect(() => {
    const d = ref.current
    if (d && !d.open) d.showModal()
  }, [])
  return createPortal(
    <dialog
      ref={ref}
      className="modal entry-warning"
      style={{ zIndex: MODAL_Z_INDEX }}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(e) => e.preventDefault()}
    >
      <div className="modal__head">
        <h2 id={titleId}>{m.entry_title()}</h2>
      </div>
      <div className="modal__body">
        <p id={bodyId}>{m.entry_body()}</p>
        <p className="entry-warning__actions">
          <button
            type="button"
            className="button"
            // biome-ignore lint/a11y/noAutofocus: the dialog's one decision
            autoFocus
            onClick={() => {
              setFlag(ENTRY_CONFIRMED_KEY, '1')
              ref.current?.close()
            }}
          >
            {m.entry_confirm()}
          </button>
          <a href={LEAVE_URL}>{m.entry_leave()}</a>
        </p>
      </div>
    </dialog>,
    teleports(),
  )
}
