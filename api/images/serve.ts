// GET /media/<name>: a picture, read from the store (api/images/storage.ts)
// by whichever process the request reaches, so a picture put through one
// machine is served by all of them from one origin (docs/several-machines.md,
// "Pictures"). Names are random and never reused for other content: the
// answer is cached for a year as immutable, and its ETag lets a client that
// asks again anyway get a 304 without the bytes.
import type { Context, MiddlewareHandler } from 'hono'
import type { Db } from '../../db/client.ts'
import { sessionMember } from '../http/session.ts'
import { isPrivateFile, isPrivateName, mayViewPrivateFile } from './private.ts'
import {
  isPictureName,
  isPublicPicture,
  type PictureStore,
  pictureType,
  withStore,
} from './storage.ts'

const IMMUTABLE = 'public, max-age=31536000, immutable'
/**
 * A private picture (api/images/private.ts) is the viewer's alone: no shared
 * cache keeps it, and the browser asks again (a 304 after the check) so a
 * signed-out tab or another member on the same device does not see it.
 */
const PRIVATE = 'private, no-cache'

/**
 * Who may fetch a private picture's file: its owner, a member who unlocked
 * it (the session's member, looked up in `db`), and staff (`staff`: the
 * moderation queue shows every picture). Without it every private name is a 404.
 */
export interface PrivateAccess {
  db: Db
  staff?: (c: Context) => Promise<boolean>
}

async function mayServePrivate(c: Context, name: string, access?: PrivateAccess) {
  if (!access) return false
  if (await mayViewPrivateFile(access.db, name, await sessionMember(c, access.db))) return true
  return (await access.staff?.(c)) === true && (await isPrivateFile(access.db, name))
}
const PREFIX = '/media/'

/** Whether an If-None-Match header names `etag` (weak or strong, or `*`). */
const matches = (header: string | undefined, etag: string) =>
  (header ?? '').split(',').some((t) => {
    const tag = t.trim()
    return tag === '*' || tag === etag || tag === `W/${etag}`
  })

/**
 * Only public pictures under /media, served as what they are and never as something
 * to save or run: anything else there is a 404 (nosniff comes with every
 * answer). Without a store every picture is a 404. A private picture's file
 * (PRIVATE_PREFIX) is a 404 to anyone but who may see it (`access`), for a
 * HEAD too, and a name no private picture has any more is one as well.
 */
export const servePictures =
  (store: PictureStore | undefined, access?: PrivateAccess): MiddlewareHandler =>
  async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    const type = pictureType(c.req.path)
    let name: string
    try {
      name = decodeURIComponent(c.req.path.slice(PREFIX.length))
    } catch {
      return c.notFound()
    }
    // A private picture (a verification selfie) is a 404 like a missing one.
    if (!type || !store || !isPictureName(name) || !isPublicPicture(name)) return c.notFound()
    const secret = isPrivateName(name)
    if (secret && !(await mayServePrivate(c, name, access))) return c.notFound()
    let picture: Awaited<ReturnType<PictureStore['get']>>
    try {
      picture = await store.get(name)
    } catch (e) {
      console.error('media: the picture store did not answer', e)
      c.header('Retry-After', '5')
      return c.text('503 Service Unavailable', 503)
    }
    if (!picture) return c.notFound()
    c.header('Cache-Control', secret ? PRIVATE : IMMUTABLE)
    if (secret) c.header('Vary', 'Cookie')
    c.header('ETag', picture.etag)
    if (matches(c.req.header('if-none-match'), picture.etag)) return c.body(null, 304)
    c.header('Content-Type', type)
    c.header('Content-Disposition', 'inline')
    c.header('Content-Length', String(picture.bytes.length))
    if (c.req.method === 'HEAD') return c.body(null, 200)
    return c.body(picture.bytes as Uint8Array<ArrayBuffer>, 200)
  }

/**
 * A stored picture as a `data:` URL (the account export), or null when it is
 * gone; a store that fails is a 503, not an export without its pictures.
 */
export async function pictureDataUrl(store: PictureStore, name: string): Promise<string | null> {
  const type = pictureType(name)
  const picture = type ? await withStore(() => store.get(name)) : null
  if (!type || !picture) return null
  return `data:${type};base64,${Buffer.from(picture.bytes).toString('base64')}`
}
