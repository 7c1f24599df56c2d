// /verify: photo verification (api/verification/). The member starts a
// request and sees a pose, takes a selfie doing it (the camera where the
// browser allows it, else a picture file, `capture="user"` on phones), sends
// it, and then sees it waits for a moderator. A route of its own: none of it
// loads with /members.
import { createFileRoute } from '@tanstack/react-router'
import { Camera, Hand, HandMetal, type LucideIcon, Pointer, Smile, ThumbsUp } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import type { VerificationStatus } from '../../../../api/contract/verification.ts'
import { m } from '../../../../messages/paraglide/messages.js'
import { useSession } from '../../../data/session.ts'
import { worker } from '../../../data/worker.ts'
import { failureText } from '../../../features/account/forms/failure-text.ts'
import { poseText } from '../../../features/verification/poses.ts'
import { VerifiedMark } from '../../../ui/VerifiedMark.tsx'

export const Route = createFileRoute('/_default/_member/verify')({
  component: Verify,
})

/** Ends the camera's tracks (the browser's camera light goes off). */
function stopCamera(stream: MediaStream | null) {
  for (const track of stream?.getTracks() ?? []) track.stop()
}

const POSE_ICONS: Record<string, LucideIcon> = {
  hand_on_head: Hand,
  thumb_up: ThumbsUp,
  peace_sign: HandMetal,
  hand_on_chin: Smile,
  point_up: Pointer,
}

function Verify() {
  const { user } = useSession()
  const [state, setState] = useState<VerificationStatus | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [consent, setConsent] = useState(false)
  const [withdrawn, setWithdrawn] = useState(false)

  useEffect(() => {
    void worker()
      .verification()
      .then((res) => (res.ok ? setState(res.value) : setError(failureText(res.error))))
  }, [])

  async function start() {
    setBusy(true)
    setError(null)
    const res = await worker().startVerification({ face_consent: consent })
    setBusy(false)
    if (res.ok) setState(res.value)
    else setError(failureText(res.error))
  }

  /** Withdraws the face-match consent: the kept face data is deleted (the verified mark stays). */
  async function withdraw() {
    setBusy(true)
    setError(null)
    const res = await worker().withdrawFaceConsent()
    setBusy(false)
    if (res.ok) {
      setState(res.value)
      setWithdrawn(true)
    } else setError(failureText(res.error))
  }

  const verified = state?.verified || user?.profile.verified
  return (
    <main className="page page--narrow verify-page">
      <h1>{m.verify_title()}</h1>
      {error && (
        <p className="form__error" role="alert">
          {error}
        </p>
      )}
      {withdrawn && <p role="status">{m.verify_face_withdrawn()}</p>}
      {verified ? (
        <p role="status">
          <VerifiedMark verified /> {m.verify_done()}
        </p>
      ) : state?.state === 'pending' ? (
        <p role="status">{m.verify_pending()}</p>
      ) : state?.state === 'started' && state.pose ? (
        <SelfieStep pose={state.pose} turn={state.turn} onSent={setState} />
      ) : (
        state && (
          <>
            {state.state === 'refused' && state.reason && (
              <p role="status">{m.verify_refused({ reason: state.reason })}</p>
            )}
            <p>{m.verify_intro()}</p>
            <FaceConsent checked={consent} onChange={setConsent} />
            <button type="button" className="button" disabled={busy} onClick={() => void start()}>
              {m.verify_start()}
            </button>
          </>
        )
      )}
      {state?.face_consent && (verified || state.state === 'pending') && (
        <KeptFace busy={busy} onWithdraw={() => void withdraw()} />
      )}
    </main>
  )
}

/** The consent given and the face data kept, with the withdrawal (GDPR Art. 7(3)). */
function KeptFace({ busy, onWithdraw }: { busy: boolean; onWithdraw: () => void }) {
  return (
    <p>
      {m.verify_face_kept()}{' '}
      <button type="button" className="button button--quiet" disabled={busy} onClick={onWithdraw}>
        {m.verify_face_withdraw()}
      </button>
    </p>
  )
}

/**
 * The explicit opt-in to face matching (GDPR Art. 9(2)(a)): unticked until
 * the member ticks it, with its purpose beside it (docs/law.md).
 */
function FaceConsent({ checked, onChange }: { checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <label className="field field--check">
      <input
        type="checkbox"
        name="face_consent"
        checked={checked}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />{' '}
      {m.verify_face_consent()}
    </label>
  )
}

function SelfieStep({
  pose,
  turn,
  onSent,
}: {
  pose: string
  turn: VerificationStatus['turn']
  onSent: (s: VerificationStatus) => void
}) {
  const step = useSelfie(onSent)
  return (
    <section aria-labelledby="verify-pose">
      <p>{m.verify_intro()}</p>
      <h2 id="verify-pose">{m.verify_pose_label()}</h2>
      <PoseLine pose={pose} turn={turn} />
      {step.error && (
        <p className="form__error" role="alert">
          {step.error}
        </p>
      )}
      <CameraControls step={step} />
      <label className="field">
        {m.verify_file()}
        <input
          type="file"
          name="selfie"
          accept="image/jpeg,image/png"
          capture="user"
          onChange={(e) => step.chooseFile(e.currentTarget.files?.[0] ?? null)}
        />
      </label>
      {step.preview && (
        <img className="verify-page__preview" src={step.preview} alt={m.verify_preview_alt()} />
      )}
      <p>
        <button
          type="button"
          className="button"
          disabled={!step.selfie || step.busy}
          onClick={() => void step.sendSelfie()}
        >
          {m.verify_send()}
        </button>
      </p>
    </section>
  )
}

/** The selfie step's state: camera stream, selfie taken or chosen, its preview, the upload. */
function useSelfie(onSent: (s: VerificationStatus) => void) {
  const video = useRef<HTMLVideoElement>(null)
  const [stream, setStream] = useState<MediaStream | null>(null)
  const [selfie, setSelfie] = useState<Blob | null>(null)
  /** Whether the selfie was taken with the camera here (then the camera button offers a retake). */
  const [fromCamera, setFromCamera] = useState(false)
  const [preview, setPreview] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const camera = typeof navigator !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia)

  // The camera stops when the step goes (sent, or the member leaves).
  useEffect(() => () => stopCamera(stream), [stream])
  useEffect(() => {
    if (video.current && stream) video.current.srcObject = stream
  }, [stream])
  useEffect(() => {
    if (!selfie) return
    const url = URL.createObjectURL(selfie)
    setPreview(url)
    return () => URL.revokeObjectURL(url)
  }, [selfie])

  async function openCamera() {
    setError(null)
    try {
      setStream(await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user' } }))
    } catch {
      setError(m.verify_camera_unavailable())
    }
  }

  function capture() {
    const v = video.current
    if (!v?.videoWidth) return
    const canvas = document.createElement('canvas')
    canvas.width = v.videoWidth
    canvas.height = v.videoHeight
    canvas.getContext('2d')?.drawImage(v, 0, 0)
    canvas.toBlob((b) => {
      if (!b) return
      setSelfie(b)
      setFromCamera(true)
    }, 'image/jpeg')
    stopCamera(stream)
    setStream(null)
  }

  function chooseFile(file: Blob | null) {
    setSelfie(file)
    setFromCamera(false)
  }

  async function sendSelfie() {
    if (!selfie) return
    setBusy(true)
    setError(null)
    const res = await worker().uploadSelfie(selfie)
    setBusy(false)
    if (res.ok) onSent(res.value)
    else setError(failureText(res.error))
  }

  return {
    video,
    stream,
    selfie,
    fromCamera,
    preview,
    error,
    busy,
    camera,
    openCamera,
    capture,
    chooseFile,
    sendSelfie,
  }
}

/** The pose to take, with its icon, and the way to turn the head when there is one. */
function PoseLine({ pose, turn }: { pose: string; turn: VerificationStatus['turn'] }) {
  const Icon = POSE_ICONS[pose] ?? Hand
  return (
    <p className="verify-page__pose" data-pose={pose}>
      <Icon className="verify-page__pose-icon" aria-hidden="true" />
      <strong>{poseText(pose)}</strong>
      {turn && (
        <>
          {' '}
          <strong data-turn={turn}>
            {turn === 'left' ? m.verify_turn_left() : m.verify_turn_right()}
          </strong>
        </>
      )}
    </p>
  )
}

/** The live camera with its capture button, or the button that opens (or reopens) the camera. */
function CameraControls({ step }: { step: ReturnType<typeof useSelfie> }) {
  if (step.stream) {
    return (
      <div className="verify-page__camera">
        <video ref={step.video} autoPlay playsInline muted aria-label={m.verify_camera_label()} />
        <button type="button" className="button" onClick={step.capture}>
          <Camera className="icon" aria-hidden="true" /> {m.verify_capture()}
        </button>
      </div>
    )
  }
  if (!step.camera) return null
  return (
    <button type="button" className="button button--quiet" onClick={() => void step.openCamera()}>
      <Camera className="icon" aria-hidden="true" />{' '}
      {step.selfie && step.fromCamera ? m.verify_retake() : m.verify_camera_start()}
    </button>
  )
}
