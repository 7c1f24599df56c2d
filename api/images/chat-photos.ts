// Photos sent in chats: the same checks and re-encoding as a profile photo
// (processImage: the bytes decide, EXIF and whatever rode along dropped, a
// name the server makes up), put in the same picture store under their own
// prefix (CHAT_PHOTO_PREFIX), so /media never serves one and no images row
// ever names one. The chats domain keeps the name on its message and decides
// who may see it (api/chats/photos.ts); this file only stores, reads and
// answers the bytes.
import { randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { CHAT_ACCEPTED, processImage } from './images.ts'
import {
  CHAT_PHOTO_PREFIX,
  isPictureName,
  type PictureStore,
  pictureType,
  withStore,
} from './storage.ts'

/** Whether `name` could be a chat photo's (made by storeChatPhoto). */
export const isChatPhotoName = (name: string) =>
  name.startsWith(CHAT_PHOTO_PREFIX) && isPictureName(name) && !name.includes('/')

/**
 * Checks and re-encodes an uploaded chat photo (png, jpeg or webp; stored as
 * JPEG of at most IMAGE_MAX_EDGE) and puts it in the store; answers its name.
 * Nothing references it yet: the caller stores the message naming it, or
 * deletes it (dropChatPhoto) when the send stored nothing.
 */
export async function storeChatPhoto(store: PictureStore, bytes: Buffer): Promise<string> {
  const { image } = await processImage(bytes, CHAT_ACCEPTED)
  const name = `${CHAT_PHOTO_PREFIX}${randomBytes(12).toString('hex')}.jpg`
  await withStore(() => store.put(name, image, 'image/jpeg'))
  return name
}

/** Deletes a chat photo no message names (a send that stored nothing); a failure is logged, not thrown. */
export async function dropChatPhoto(store: PictureStore, name: string): Promise<void> {
  await store
    .delete([name])
    .catch((e: unknown) => console.error('media: an unsent chat photo was left', name, e))
}

/**
 * Answers a chat photo's bytes to a viewer the caller already allowed:
 * not sniffed, inline; 404 when
 * the store has no such picture, 503 when it did not answer. HEAD gets the
 * headers only.
 */
export async function answerChatPhoto(
  c: Context,
  store: PictureStore,
  name: string,
): Promise<Response> {
  const type = pictureType(name)
  if (!type || !isChatPhotoName(name)) return c.notFound()
  const picture = await withStore(() => store.get(name))
  if (!picture) return c.notFound()
  // Cache-Control is the API's no-store (api/app.ts): member data stays out of HTTP caches.
  c.header('ETag', picture.etag)
  c.header('Content-Type', type)
  c.header('Content-Disposition', 'inline')
  c.header('X-Content-Type-Options', 'nosniff')
  c.header('Content-Length', String(picture.bytes.length))
  if (c.req.method === 'HEAD') return c.body(null, 200)
  return c.body(picture.bytes as Uint8Array<ArrayBuffer>, 200)
}
