// Reading an upload of pictures (multipart/form-data, field `file`), shared
// by the profile photos (routes.ts) and the verification selfie
// (api/verification): the size cap while the body streams in, the type, the
// member's upload rate and the parts that are files.
import type { Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { Db } from '../../db/client.ts'
import { IMAGE_MAX_BYTES } from '../contract/index.ts'
import { ApiFailure } from '../http/errors.ts'
import { enforce } from '../http/ratelimit.ts'

/** Room for the multipart boundaries and headers around IMAGE_MAX_BYTES of pictures. */
const MULTIPART_OVERHEAD = 64 * 1024

export const badFile = (message: string) => new ApiFailure(400, 'invalid_input', 'file', message)

/** Refuses the body while it streams in, before it is held in memory: 413 file_too_large. */
export const pictureBodyLimit = () =>
  bodyLimit({
    maxSize: IMAGE_MAX_BYTES + MULTIPART_OVERHEAD,
    onError: () => {
      throw new ApiFailure(413, 'file_too_large', 'file')
    },
  })

/**
 * The files of the upload, in order: 400 naming `file` for another content
 * type, an unreadable body, no file or a part that is not a file; 429 past
 * the member's upload rate.
 */
export async function uploadedFiles(c: Context, db: Db, memberId: number): Promise<File[]> {
  if (!c.req.header('content-type')?.toLowerCase().startsWith('multipart/form-data')) {
    throw badFile('multipart/form-data expected')
  }
  await enforce(c, db, 'upload', `member:${memberId}`)
  const body = await c.req.parseBody({ all: true }).catch(() => {
    throw badFile('unreadable multipart body')
  })
  const raw = body.file
  const parts = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]
  const files = parts.filter((p): p is File => p instanceof File)
  if (files.length === 0 || files.length !== parts.length) throw badFile('no file')
  return files
}
