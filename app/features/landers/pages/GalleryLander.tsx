import { useRef, useState } from 'react'
import type { LanderMember } from '../../../../api/contract/index.ts'
import { m } from '../../../../messages/paraglide/messages.js'
import { LanderShell, MemberPhoto, SignupCta } from '../LanderShell.tsx'

/** A photo gallery; a photo opens large with a way to write to that member (after sign-up). */
export function GalleryLander() {
  return (
    <LanderShell lander="gallery" title={m.traffic_gallery_title()} lead={m.traffic_gallery_lead()}>
      {(members) => <Gallery members={members} />}
    </LanderShell>
  )
}

function Gallery({ members }: { members: LanderMember[] }) {
  const dialog = useRef<HTMLDialogElement>(null)
  const [open, setOpen] = useState<LanderMember | null>(null)
  return (
    <>
      <ul className="lander-gallery">
        {members.map((mb) => (
          <li key={mb.id}>
            <button
              type="button"
              onClick={() => {
                setOpen(mb)
                dialog.current?.showModal()
              }}
            >
              <MemberPhoto member={mb} />
            </button>
          </li>
        ))}
      </ul>
      <dialog ref={dialog} className="lander-gallery__big" onClose={() => setOpen(null)}>
        {open && <MemberPhoto member={open} eager />}
        {open && <SignupCta label={m.traffic_write({ name: open.name })} />}
        <button type="button" className="link-button" onClick={() => dialog.current?.close()}>
          {m.traffic_close()}
        </button>
      </dialog>
    </>
  )
}
