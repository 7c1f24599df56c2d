import { m } from '../../messages/paraglide/messages.js'
import { showToast, type Toast } from './toasts.ts'

export type FailureTexts = typeof import('./failure-texts.ts')

/**
 * Shows the toast of a failed action, its text loaded when needed
 * (app/ui/failure-texts.ts). The service worker precaches that chunk, so it
 * loads offline too; should it still fail, the general error text says it.
 */
export function showFailureToast(pick: (texts: FailureTexts) => Omit<Toast, 'id'>): void {
  import('./failure-texts.ts').then(
    (texts) => showToast(pick(texts)),
    () => showToast({ kind: 'danger', body: m.error_generic() }),
  )
}
