import { ChevronLeft, ChevronRight } from 'lucide-react'
import { type KeyboardEvent, type PointerEvent, useRef, useState } from 'react'
import type { Image } from '../../api/contract/index.ts'
import { m } from '../../messages/paraglide/messages.js'
import { mediaUrl } from './media.ts'

/** A horizontal move at least this long (px) between pointer down and up is a swipe. */
const SWIPE_PX = 40

/**
 * A member's photos as a gallery: one large photo with previous and next
 * arrows over it, a dot per photo, the arrow keys while focus is in it, and
 * a swipe on a touch screen. Every photo has alt text saying whose it is and
 * which of how many; the current dot is marked with aria-current.
 */
export function Gallery({ name, images }: { name: string; images: readonly Image[] }) {
  const [index, setIndex] = useState(0)
  const start = useRef<{ x: number; y: number } | null>(null)
  const count = images.length
  const shown = Math.min(index, count - 1)
  const current = images[shown]
  if (!current) return <div className="gallery gallery--empty" aria-hidden="true" />
  const go = (i: number) => setIndex((i + count) % count)

  function onKeyDown(e: KeyboardEvent) {
    if (count < 2) return
    if (e.key === 'ArrowLeft') go(shown - 1)
    else if (e.key === 'ArrowRight') go(shown + 1)
    else return
    e.preventDefault()
  }
  function onPointerUp(e: PointerEvent) {
    const from = start.current
    start.current = null
    if (!from || count < 2) return
    const dx = e.clientX - from.x
    if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > Math.abs(e.clientY - from.y))
      go(dx < 0 ? shown + 1 : shown - 1)
  }

  return (
    <section
      className="gallery"
      aria-label={m.gallery_label({ name })}
      onKeyDown={onKeyDown}
      onPointerDown={(e) => {
        start.current = { x: e.clientX, y: e.clientY }
      }}
      onPointerUp={onPointerUp}
      onPointerCancel={() => {
        start.current = null
      }}
    >
      <img
        className="gallery__main"
        src={mediaUrl(current.thumb_filename)}
        alt={m.gallery_photo_alt({ n: shown + 1, count, name })}
        width={320}
        height={320}
        draggable={false}
      />
      {count > 1 && (
        <>
          <button
            type="button"
            className="gallery__arrow gallery__arrow--prev"
            aria-label={m.gallery_prev()}
            onClick={() => go(shown - 1)}
          >
            <ChevronLeft className="icon" aria-hidden="true" />
          </button>
          <button
            type="button"
            className="gallery__arrow gallery__arrow--next"
            aria-label={m.gallery_next()}
            onClick={() => go(shown + 1)}
          >
            <ChevronRight className="icon" aria-hidden="true" />
          </button>
          <GalleryDots images={images} shown={shown} go={go} />
        </>
      )}
    </section>
  )
}

/** One dot a photo (a thumbnail in the lavish template's strip), the shown one current. */
function GalleryDots({
  images,
  shown,
  go,
}: {
  images: readonly Image[]
  shown: number
  go: (i: number) => void
}) {
  return (
    <ul className="gallery__dots">
      {images.map((img, i) => (
        <li key={img.id}>
          <button
            type="button"
            className="gallery__dot"
            aria-label={m.gallery_show({ n: i + 1 })}
            aria-current={i === shown ? 'true' : undefined}
            onClick={() => go(i)}
          >
            {/* The lavish template draws the dots as a strip of the photos
                (app/theme/templates.css); hidden, a lazy picture never loads. */}
            <img
              className="gallery__thumb"
              src={mediaUrl(img.thumb_filename)}
              alt=""
              width={64}
              height={64}
              loading="lazy"
              draggable={false}
            />
          </button>
        </li>
      ))}
    </ul>
  )
}
