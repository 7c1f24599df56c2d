import { useState } from 'react'
import type { Image } from '../../api/contract/index.ts'
import { m } from '../../messages/paraglide/messages.js'
import { mediaUrl } from './media.ts'

/**
 * A member's photos: one large, with previous/next buttons and a row of
 * thumbnails to pick from. Every photo has alt text saying whose it is and
 * which of how many; the current thumbnail is marked with aria-current.
 */
export function Gallery({ name, images }: { name: string; images: readonly Image[] }) {
  const [index, setIndex] = useState(0)
  const count = images.length
  const current = images[Math.min(index, count - 1)]
  if (!current) return <div className="gallery gallery--empty" aria-hidden="true" />
  const go = (i: number) => setIndex((i + count) % count)
  return (
    <section className="gallery" aria-label={m.gallery_label({ name })}>
      <img
        className="gallery__main"
        src={mediaUrl(current.thumb_filename)}
        alt={m.gallery_photo_alt({ n: index + 1, count, name })}
        width={320}
        height={320}
      />
      {count > 1 && (
        <div className="gallery__controls">
          <button type="button" className="button button--secondary" onClick={() => go(index - 1)}>
            {m.gallery_prev()}
          </button>
          <ul className="gallery__thumbs">
            {images.map((img, i) => (
              <li key={img.id}>
                <button
                  type="button"
                  className="gallery__thumb"
                  aria-label={m.gallery_show({ n: i + 1 })}
                  aria-current={i === index ? 'true' : undefined}
                  onClick={() => go(i)}
                >
                  <img src={mediaUrl(img.thumb_filename)} alt="" width={56} height={56} />
                </button>
              </li>
            ))}
          </ul>
          <button type="button" className="button button--secondary" onClick={() => go(index + 1)}>
            {m.gallery_next()}
          </button>
        </div>
      )}
    </section>
  )
}
