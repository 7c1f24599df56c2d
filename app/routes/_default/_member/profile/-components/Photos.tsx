// The member's photos on /profile: add (click or drop), make main, make
// private or public, delete. A photo held for review (the site pre-moderates
// photos) is marked; only its owner sees it, and it cannot be the main photo
// until approved. A private photo (docs/payments.md, "What credits buy") is
// marked; the main photo cannot be one. Below: who unlocked the private ones.
// The list is the signed-in user the worker keeps fresh after each change.
import { useEffect, useState } from 'react'
import type { Image, PhotoUnlocksResponse } from '../../../../../../api/contract/index.ts'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { useSession } from '../../../../../data/session.ts'
import { worker } from '../../../../../data/worker.ts'
import { FormAlert } from '../../../../../features/account/forms/Field.tsx'
import { failureText } from '../../../../../features/account/forms/failure-text.ts'
import { PhotoPicker } from '../../../../../features/account/forms/PhotoPicker.tsx'
import { AppLink } from '../../../../../ui/AppLink.tsx'
import { formatDateTime } from '../../../../../ui/format.ts'
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
              {img.private && <span className="badge">{m.private_photo_badge()}</span>}
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
              {img.thumb_filename !== main && (
                <button
                  type="button"
                  className="link-button"
                  disabled={busy}
                  onClick={() => void act(() => worker().setPhotoPrivate(img.id, !img.private))}
                >
                  {img.private ? m.private_photo_make_public() : m.private_photo_make_private()}
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
      {images.length > 1 && <p className="form__hint">{m.private_photo_note()}</p>}
      <PhotoUnlocks images={images} />
      <FormAlert text={alert} />
      <PhotoPicker multiple onUploaded={() => setAlert(null)} />
    </div>
  )
}

/** Who unlocked the member's private photos, newest first (asked again when their number changes). */
function PhotoUnlocks({ images }: { images: readonly Image[] }) {
  const privateCount = images.filter((img) => img.private).length
  const [unlocks, setUnlocks] = useState<PhotoUnlocksResponse['unlocks'] | null>(null)
  useEffect(() => {
    if (privateCount === 0) return
    void worker()
      .photoUnlocks()
      .then((res) => {
        if (res.ok) setUnlocks(res.value.unlocks)
      })
  }, [privateCount])
  if (privateCount === 0 || !unlocks) return null
  const thumbOf = (id: number) => images.find((img) => img.id === id)?.thumb_filename
  return (
    <section aria-labelledby="photo-unlocks-title">
      <h3 id="photo-unlocks-title">{m.private_photo_unlocks_title()}</h3>
      {unlocks.length === 0 ? (
        <p>{m.private_photo_unlocks_none()}</p>
      ) : (
        <ul className="photo-unlocks">
          {unlocks.map((u) => {
            const thumb = thumbOf(u.image_id)
            return (
              <li key={`${u.image_id}-${u.member.id}`}>
                {thumb && (
                  <img
                    src={mediaUrl(thumb)}
                    alt={m.private_photo_unlocked_alt()}
                    width={40}
                    height={40}
                  />
                )}{' '}
                <AppLink href={`/members/${u.member.id}`}>{u.member.name}</AppLink>{' '}
                <time dateTime={u.unlocked_at}>{formatDateTime(u.unlocked_at)}</time>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
