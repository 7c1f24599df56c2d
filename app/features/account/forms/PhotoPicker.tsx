// Photo upload by click (a file chooser) or drag-drop (spec §2 step 2,
// /profile). Only PNG and JPEG are offered and sent (spec §5); the server
// decides again from the bytes. The files cross to the sync worker, which
// posts them as multipart field `file`.
import { type DragEvent, useId, useRef, useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { type SyncError, worker } from '../../../data/worker.ts'
import { ACCEPTED_IMAGE_TYPES, IMAGE_MAX_FILES, isAcceptedImage } from '../validation.ts'
import { failureText } from './failure-text.ts'

export type UploadResult = Awaited<ReturnType<ReturnType<typeof worker>['uploadImages']>>

export function PhotoPicker({
  multiple,
  onUploaded,
}: {
  multiple: boolean
  onUploaded: (result: Extract<UploadResult, { ok: true }>['value']) => void
}) {
  const uid = useId()
  const input = useRef<HTMLInputElement>(null)
  const [dragging, setDragging] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [status, setStatus] = useState<string | null>(null)

  async function upload(list: FileList | null) {
    const files = Array.from(list ?? [])
    if (files.length === 0) return
    // The server takes at most IMAGE_MAX_FILES pictures per request.
    const picked = multiple ? files.slice(0, IMAGE_MAX_FILES) : files.slice(0, 1)
    if (!picked.every(isAcceptedImage)) {
      setError(m.signup_photo_type())
      return
    }
    setBusy(true)
    setError(null)
    setStatus(m.signup_photo_uploading())
    const res = await worker().uploadImages(picked)
    setBusy(false)
    if (input.current) input.current.value = ''
    if (!res.ok) {
      setStatus(null)
      setError(m.signup_photo_failed({ error: uploadError(res.error) }))
      return
    }
    setStatus(m.signup_photo_added())
    onUploaded(res.value)
  }

  function drop(e: DragEvent) {
    e.preventDefault()
    setDragging(false)
    if (!busy) void upload(e.dataTransfer.files)
  }

  return (
    <fieldset
      className={`dropzone${dragging ? ' dropzone--active' : ''}`}
      onDragOver={(e) => {
        e.preventDefault()
        setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
    >
      <legend className="visually-hidden">{m.signup_photo_dropzone()}</legend>
      <input
        ref={input}
        id={`${uid}-file`}
        className="visually-hidden"
        type="file"
        tabIndex={-1}
        aria-hidden="true"
        accept={ACCEPTED_IMAGE_TYPES.join(',')}
        multiple={multiple}
        onChange={(e) => void upload(e.target.files)}
      />
      <button
        type="button"
        className="button"
        disabled={busy}
        aria-describedby={error ? `${uid}-error` : undefined}
        onClick={() => input.current?.click()}
      >
        {m.signup_photo_choose()}
      </button>
      <PickerNotes uid={uid} status={status} error={error} />
    </fieldset>
  )
}

function uploadError(error: SyncError): string {
  switch (error.code) {
    case 'invalid_image':
      return m.signup_photo_type()
    case 'file_too_large':
    case 'image_too_large':
      return m.signup_photo_too_large()
    case 'too_many_images':
      return m.signup_photo_too_many()
    default:
      return failureText(error)
  }
}

/** The drop hint, the upload's progress and its error. */
function PickerNotes({
  uid,
  status,
  error,
}: {
  uid: string
  status: string | null
  error: string | null
}) {
  return (
    <>
      <p className="dropzone__hint">{m.signup_photo_drop()}</p>
      <p className="form__status" role="status">
        {status}
      </p>
      {error && (
        <p id={`${uid}-error`} className="form__error" role="alert">
          {error}
        </p>
      )}
    </>
  )
}
