// The member's photos on /profile: add (click or drop), make main, delete.
// A photo held for review (the site pre-moderates photos) is marked; only
// its owner sees it, and it cannot be the main photo until approved.
// The list is the signed-in user the worker keeps fresh after each change.
import { useState } from 'react'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { useSession } from '../../../../../data/session.ts'
import { worker } from '../../../../../data/worker.ts'
import { FormAlert } from '../../../../../features/account/forms/Field.tsx'
import { failureText } from '../../../../../features/account/forms/failure-text.ts'
import { PhotoPicker } from '../../../../../features/account/forms/PhotoPicker.tsx'
import { mediaUrl } from '../../../../../ui/media.ts'

export function Photos() {
  const { user } = useSession()
  const [alert, setAlert] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const images = user?.profile.images ?? []
  const main = user?.main_image?.thumb_filename
  const pending = images.some((img) => img.pending)

  async function act(
    run: () => Promise<{ ok: boolean; error?: Parameters<typeof failureText>[0] }>,
  ) {
    setBusy(true)
    setAlert(null)
    const res = await run()
    setBusy(false)
    if (!res.ok && res.error) setAlert(failureText(res.error))
  }

  return (
    <div>
      {images.length > 0 && (
        <ul className="photo-list">
          {images.map((img) => (
            <li key={img.id}>
              <img src={mediaUrl(img.thumb_filename)} alt={m.signup_photo_alt()} />
              {img.pending ? (
                <span className="badge">{m.profile_photo_pending()}</span>
              ) : img.thumb_filename === main ? (
                <span className="badge">{m.profile_photo_main()}</span>
              ) : (
                <button
                  type="button"
                  className="link-button"
                  disabled={busy}
                  onClick={() => void act(() => worker().setMainImage(img.id))}
                >
                  {m.profile_photo_make_main()}
                </button>
              )}
              <button
                type="button"
                className="link-button"
                disabled={busy}
                onClick={() => void act(() => worker().deleteImage(img.id))}
              >
                {m.profile_photo_delete()}
              </button>
            </li>
          ))}
        </ul>
      )}
      {pending && <p className="form__hint">{m.profile_photo_pending_note()}</p>}
      <FormAlert text={alert} />
      <PhotoPicker multiple onUploaded={() => setAlert(null)} />
    </div>
  )
}
