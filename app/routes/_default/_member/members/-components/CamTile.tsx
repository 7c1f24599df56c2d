import type { Cam } from '../../../../../../api/contract/index.ts'
import { m } from '../../../../../../messages/paraglide/messages.js'

/** A CSS url() that a quote, backslash or line break in the address cannot break out of. */
const cssUrl = (url: string) => `url("${url.replace(/["\\\n\r]/g, encodeURIComponent)}")`

/**
 * A webcam tile (spec §2, §6). It is advertising and says so, visibly (an
 * "Ad" badge, a different frame) and in its accessible name, so it never
 * passes for a member. Its class differs from member tiles (`tile`) on
 * purpose. The thumbnail is decoration (the link text names the cam), drawn
 * as a background so it is not one of the members' photos. Its link (spec
 * §7: a webcam click opens the provider's page through our redirect) comes
 * with the tile from the worker's read (sync/store/watch.ts), which has the
 * endpoint table.
 */
export function CamTile({ cam }: { cam: Cam & { href: string } }) {
  return (
    <li className="cam-tile" data-cam={cam.account}>
      <a className="cam-tile__link" href={cam.href} target="_blank" rel="noopener noreferrer">
        <span className="visually-hidden">
          {m.cam_tile_label({ name: cam.name, age: cam.age })} {m.cam_tile_new_tab()}
        </span>
        <span className="cam-tile__badge" aria-hidden="true">
          {m.cam_ad_badge()}
        </span>
        <span
          className="cam-tile__photo"
          aria-hidden="true"
          style={{ backgroundImage: cssUrl(cam.thumb_url) }}
        />
        {/* Over the photo, as a member tile's caption: the tile is no taller
            than a member's, so a row with an ad does not push the next
            members below a phone's first screen. */}
        <span className="cam-tile__caption" aria-hidden="true">
          <span className="cam-tile__name">
            {cam.name}, {m.tile_age({ age: cam.age })}
          </span>
          <span className="cam-tile__cta">
            {cam.online && <span className="cam-tile__live" />} {m.cam_tile_cta()}
          </span>
        </span>
      </a>
    </li>
  )
}
