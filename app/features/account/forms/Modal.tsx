// An accessible modal on the native <dialog>: showModal() makes the rest of
// the page inert (the focus stays inside), Esc closes it, and focus goes
// back to whatever opened it.

import { X } from 'lucide-react'
import { type ReactNode, useEffect, useId, useRef } from 'react'
import { createPortal } from 'react-dom'
import { m } from '../../../../messages/paraglide/messages.js'
import { MODAL_Z_INDEX, teleports } from '../../../ui/root-constants.ts'

export function Modal({
  open,
  title,
  onClose,
  children,
  className = '',
}: {
  open: boolean
  title: string
  onClose: () => void
  children: ReactNode
  /** A variant of the modal's look (e.g. `modal--sheet`, a panel from the foot on a phone). */
  className?: string
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const opener = useRef<HTMLElement | null>(null)
  const titleId = useId()

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
      dialog.showModal()
    } else if (!open && dialog.open) {
      dialog.close()
    }
  }, [open])

  // Spec §2: dialogs teleport into #teleports.
  return createPortal(
    <dialog
      ref={ref}
      className={`modal ${className}`.trim()}
      style={{ zIndex: MODAL_Z_INDEX }}
      aria-modal="true"
      aria-labelledby={titleId}
      onClose={() => {
        onClose()
        opener.current?.focus()
      }}
    >
      <div className="modal__head">
        <h2 id={titleId}>{title}</h2>
        <button
          type="button"
          className="modal__close"
          aria-label={m.modal_close()}
          onClick={() => ref.current?.close()}
        >
          <X className="icon" aria-hidden="true" />
        </button>
      </div>
      <div className="modal__body">{children}</div>
    </dialog>,
    teleports(),
  )
}
