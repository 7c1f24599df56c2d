import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { ApiFailure } from '../http/errors.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import { bodyOf, pathOf } from '../http/validate.ts'
import { badFile, type PictureStore, pictureBodyLimit, uploadedFiles } from '../images/index.ts'
import type { JobRunner } from '../jobs/queue.ts'
import { operatorSettings } from '../settings/index.ts'
import {
  saveSelfie,
  startVerification,
  verificationStatus,
  withdrawFaceConsent,
} from './verification.ts'

/** GET/POST /api/verification.php and POST /api/verification_selfie.php (contract: VerificationStatus). */
export const verificationRoutes = (db: Db, store: PictureStore | undefined, jobs?: JobRunner) =>
  new Hono<AuthEnv>()
    .get(pathOf(endpoints.verification), requireMember(db), async (c) =>
      c.json(await verificationStatus(db, c.get('memberId'))),
    )
    .post(
      pathOf(endpoints.startVerification),
      requireMember(db),
      bodyOf(endpoints.startVerification),
      async (c) =>
        c.json(
          await startVerification(db, c.get('memberId'), c.req.valid('json').face_consent ?? false),
        ),
    )
    .post(pathOf(endpoints.uploadSelfie), requireMember(db), pictureBodyLimit(), async (c) => {
      if (!store) throw new ApiFailure(503, 'uploads_unavailable')
      const memberId = c.get('memberId')
      const files = await uploadedFiles(c, db, memberId)
      const raw = files[0]
      if (!raw || files.length !== 1) throw badFile('one file expected')
      const bytes = Buffer.from(await raw.arrayBuffer())
      const { face_match } = await operatorSettings(db, c.req.header('host'))
      const status = await saveSelfie(db, memberId, store, bytes, face_match)
      jobs?.poke()
      return c.json(status)
    })
    .delete(pathOf(endpoints.withdrawFaceConsent), requireMember(db), async (c) =>
      c.json(await withdrawFaceConsent(db, c.get('memberId'))),
    )
