// Terms and privacy for the accept-terms text (spec §2 step 0): modals with
// the text in the visitor's language (Paraglide; languages without their own
// text fall back to English).
import { m } from '../../../../messages/paraglide/messages.js'
import { Modal } from './Modal.tsx'

export type LegalDoc = 'terms' | 'privacy'

export function LegalModal({
  doc,
  site,
  company,
  onClose,
}: {
  doc: LegalDoc | null
  site: string
  company: string
  onClose: () => void
}) {
  const p = { site, company }
  const terms = [m.terms_1(p), m.terms_2(), m.terms_3(), m.terms_4(), m.terms_5(), m.terms_6()]
  const privacy = [
    m.privacy_1(p),
    m.privacy_2(),
    m.privacy_3(),
    m.privacy_4(),
    m.privacy_5(),
    m.privacy_6(),
  ]
  return (
    <>
      <Modal open={doc === 'terms'} title={m.terms_title()} onClose={onClose}>
        {terms.map((t) => (
          <p key={t}>{t}</p>
        ))}
      </Modal>
      <Modal open={doc === 'privacy'} title={m.privacy_title()} onClose={onClose}>
        {privacy.map((t) => (
          <p key={t}>{t}</p>
        ))}
      </Modal>
    </>
  )
}
