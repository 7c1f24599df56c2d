import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { IMAGE_MAX_BYTES } from '../contract/index.ts'
import { ApiFailure } from '../http/errors.ts'
import { enforce } from '../http/ratelimit.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import { bodyOf, pathOf } from '../http/validate.ts'
import type { PictureStore } from '../images/index.ts'
import { saveSelfie, startVerification, verificationStatus } from './verification.ts'

/** Room for the multipart boundary and headers around one picture. */
const MULTIPART_OVERHEAD = 64 * 1024

const badFile = (message: string) => new ApiFailure(400, 'invalid_input', 'file', message)

/** GET/POST /api/verification.php and POST /api/verification_selfie.php (contract: VerificationStatus). */
export const verificationRoutes = (db: Db, store: PictureStore | undefined) =>
  new Hono<AuthEnv>()
    .get(pathOf(endpoints.verification), requireMember(db), async (c) =>
      c.json(await verificationStatus(db, c.get('memberId'))),
    )
    .post(
      pathOf(endpoints.startVerification),
      requireMember(db),
      bodyOf(endpoints.startVerification),
      async (c) => c.json(await startVerification(db, c.get('memberId'))),
    )
    .post(
      pathOf(endpoints.uploadSelfie),
      requireMember(db),
      bodyLimit({
        maxSize: IMAGE_MAX_BYTES + MULTIPART_OVERHEAD,
        onError: () => {
          throw new ApiFailure(413, 'file_too_large', 'file')
        },
      }),
      async (c) => {
        if (!store) throw new ApiFailure(503, 'uploads_unavailable')
        const memberId = c.get('memberId')
        if (!c.req.header('content-type')?.toLowerCase().startsWith('multipart/form-data')) {
          throw badFile('multipart/form-data expected')
        }
        await enforce(c, db, 'upload', `member:${memberId}`)
        const body = await c.req.parseBody({ all: true }).catch(() => {
          throw badFile('unreadable multipart body')
        })
        const raw = body.file
        if (!(raw instanceof File)) throw badFile('one file expected')
        const bytes = Buffer.from(await raw.arrayBuffer())
        return c.json(await saveSelfie(db, memberId, store, bytes))
      },
    )
