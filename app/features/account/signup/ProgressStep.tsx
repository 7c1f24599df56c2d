// Step 6 (spec §2, §9): progress while the activation mail is sent. The
// route polls GET /api/activate.php every 900 ms and counts the ticks; the
// text changes at ticks 4, 7 and 10.
import { m } from '../../../../messages/paraglide/messages.js'
import { ACTIVATION_TICKS, activationTextIndex } from '../signup-steps.ts'

const TEXTS = [m.signup_progress_0, m.signup_progress_1, m.signup_progress_2, m.signup_progress_3]

export function ProgressStep({ tick }: { tick: number }) {
  const text = TEXTS[activationTextIndex(tick)] ?? m.signup_progress_3
  return (
    <div className="step-body">
      <progress
        className="activation-progress"
        max={ACTIVATION_TICKS}
        value={tick}
        aria-label={m.signup_progress_title()}
      />
      <p role="status">{text()}</p>
    </div>
  )
}
