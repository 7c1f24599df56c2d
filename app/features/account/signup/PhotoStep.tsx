// Step 2 (spec §2): a photo by click or drag-drop, png or jpeg.
import { useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { mediaUrl } from '../../../ui/media.ts'
import { PhotoPicker } from '../forms/PhotoPicker.tsx'

export function PhotoStep({
  initialThumb,
  onDone,
}: {
  initialThumb: string | null
  onDone: () => void
}) {
  const [thumb, setThumb] = useState(initialThumb)
  return (
    <div className="step-body">
      <p>{m.signup_photo_body()}</p>
      {thumb && <img className="photo-preview" src={mediaUrl(thumb)} alt={m.signup_photo_alt()} />}
      <PhotoPicker
        multiple={false}
        onUploaded={(r) =>
          setThumb(r.main_image?.thumb_filename ?? r.images[0]?.thumb_filename ?? null)
        }
      />
      <div className="actions">
        {thumb ? (
          <button type="button" className="button" onClick={onDone}>
            {m.signup_continue()}
          </button>
        ) : (
          <button type="button" className="button button--secondary" onClick={onDone}>
            {m.signup_skip()}
          </button>
        )}
      </div>
    </div>
  )
}
