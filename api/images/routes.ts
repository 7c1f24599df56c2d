import type { SQL } from 'drizzle-orm'
import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { IMAGE_MAX_FILES } from '../contract/index.ts'
import { ApiFailure } from '../http/errors.ts'
import { requestHost } from '../http/host.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import { bodyOf, pathOf } from '../http/validate.ts'
import type { JobRunner } from '../jobs/queue.ts'
import { cachedOperatorSettings, loadSettings } from '../settings/index.ts'
import { deleteImage, ownImages, saveImages, setMainImage } from './images.ts'
import { photoUnlocksOf, setPhotoPrivate, unlockPhoto } from './private.ts'
import type { PictureStore } from './storage.ts'
import { badFile, pictureBodyLimit, uploadedFiles } from './upload.ts'

/**
 * POST/GET/PUT/DELETE /api/profileimage.php (contract: ProfileImagesResponse).
 * An upload to a site that pre-moderates photos (settings.photo_premoderation
 * of the request's host) is stored pending, as is one matching a photo of a
 * banned account (`bannedSql`, the moderation domain's rule: api/images/match.ts).
 * Private pictures (api/images/private.ts): PUT /api/privatephoto.php marks
 * one private or public, POST /api/photounlock.php unlocks another member's
 * for the host's `private_photo_credits`, GET /api/photounlock.php lists who
 * unlocked the member's own.
 * Unless the site's face_match is off, the new pictures' faces are checked
 * against other accounts' kept faces after the answer (api/images/face.ts).
 */
export const imageRoutes = (
  db: Db,
  store: PictureStore | undefined,
  options: { trustProxy?: boolean; jobs?: JobRunner; bannedSql?: (member: SQL) => SQL } = {},
) =>
  new Hono<AuthEnv>()
    .get(pathOf(endpoints.images), requireMember(db), async (c) =>
      c.json(await ownImages(db, c.get('memberId'))),
    )
    .post(pathOf(endpoints.uploadImages), requireMember(db), pictureBodyLimit(), async (c) => {
      if (!store) throw new ApiFailure(503, 'uploads_unavailable')
      const memberId = c.get('memberId')
      const files = await uploadedFiles(c, db, memberId)
      if (files.length > IMAGE_MAX_FILES) throw badFile(`at most ${IMAGE_MAX_FILES} files`)
      const buffers = await Promise.all(files.map(async (f) => Buffer.from(await f.arrayBuffer())))
      const settings = await loadSettings(db, requestHost(c, options.trustProxy ?? false))
      const faceCheck = settings.face_match !== 'off'
      const answer = await saveImages(db, memberId, store, buffers, {
        pending: settings.photo_premoderation,
        bannedSql: options.bannedSql,
        faceCheck,
      })
      // The photo face job runs now, not at the next poll.
      if (faceCheck) options.jobs?.poke()
      return c.json(answer)
    })
    .put(
      pathOf(endpoints.setMainImage),
      requireMember(db),
      bodyOf(endpoints.setMainImage),
      async (c) => c.json(await setMainImage(db, c.get('memberId'), c.req.valid('json').id)),
    )
    .delete(
      pathOf(endpoints.deleteImage),
      requireMember(db),
      bodyOf(endpoints.deleteImage),
      async (c) => {
        const { answer, filesLeft } = await deleteImage(
          db,
          c.get('memberId'),
          store,
          c.req.valid('json').id,
        )
        if (filesLeft) options.jobs?.poke()
        return c.json(answer)
      },
    )
    .put(
      pathOf(endpoints.setPhotoPrivate),
      requireMember(db),
      bodyOf(endpoints.setPhotoPrivate),
      async (c) => {
        const body = c.req.valid('json')
        const { answer, filesLeft } = await setPhotoPrivate(
          db,
          c.get('memberId'),
          store,
          body.id,
          body.private,
        )
        if (filesLeft) options.jobs?.poke()
        return c.json(answer)
      },
    )
    .post(
      pathOf(endpoints.unlockPhoto),
      requireMember(db),
      bodyOf(endpoints.unlockPhoto),
      async (c) => {
        const host = requestHost(c, options.trustProxy ?? false)
        const price = (await cachedOperatorSettings(db, host)).private_photo_credits
        return c.json(await unlockPhoto(db, c.get('memberId'), c.req.valid('json').id, price))
      },
    )
    .get(pathOf(endpoints.photoUnlocks), requireMember(db), async (c) =>
      c.json(await photoUnlocksOf(db, c.get('memberId'))),
    )
