// Where pictures are kept: one interface, two stores. Every picture file of
// the site (uploads and their thumbnails, the demo seed's pictures) is
// written, read, listed and deleted through it; nothing else touches them.
// - disk: a directory (MEDIA_DIR, default DATA_DIR/media), the default of
//   `npm start` on one machine;
// - S3: a bucket of any S3-compatible store (S3_BUCKET), shared by every
//   process on every machine (docs/several-machines.md, "Pictures").
// Names are made by the server (api/images/images.ts, db/seed/avatars.ts)
// and never reused for other content, so an object never changes once put.
import { randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import type { StorageConfig } from '../config.ts'
import { ApiFailure } from '../http/errors.ts'

/** A stored picture as read back: its bytes and a validator that changes with them. */
export interface StoredPicture {
  bytes: Uint8Array
  /** A quoted entity tag (`"…"`), the same from every process. */
  etag: string
}

export interface PictureStore {
  /** What the start prints: which store is live, and where. */
  readonly description: string
  /** Stores `bytes` under `name`, all or nothing: a reader never sees half a picture. */
  put(name: string, bytes: Uint8Array, contentType: string): Promise<void>
  /** The picture, or null when there is none by that name. */
  get(name: string): Promise<StoredPicture | null>
  /**
   * Deletes the pictures; a name already gone is fine (and so is a name that
   * is no picture's: nothing is deleted), any other failure throws.
   */
  delete(names: string[]): Promise<void>
  /** The names that start with `prefix` ('' for all). */
  list(prefix: string): Promise<string[]>
}

/**
 * A picture name: segments of letters, digits, `_`, `-` and `.`, none
 * starting with a dot (no `..`, no hidden or temporary files), joined by `/`.
 */
export const isPictureName = (name: string) =>
  name.length > 0 &&
  name.length <= 200 &&
  name.split('/').every((part) => /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/.test(part))

/**
 * Verification selfies (api/verification/) are stored under names starting
 * with this: private pictures the public /media route never serves
 * (api/images/serve.ts); staff see them inside the moderation queue only.
 */
export const SELFIE_PREFIX = 'selfie-'

/**
 * Photos sent in chats (api/images/chat-photos.ts) are stored under names
 * starting with this: private to the two members of the chat, served only
 * by the chats domain's own route after it checked the viewer, never by
 * /media, and never a profile photo (no images row names them).
 */
export const CHAT_PHOTO_PREFIX = 'chat-'

/**
 * Voice messages' recordings (api/images/voice.ts) are stored under names
 * starting with this, private as chat photos are: served only by the chats
 * domain's own route (api/chats/voice.ts) after it checked the listener.
 */
export const VOICE_PREFIX = 'voice-'

/** Whether /media may serve the picture: every name but a private one. */
export const isPublicPicture = (name: string) =>
  !name.startsWith(SELFIE_PREFIX) &&
  !name.startsWith(CHAT_PHOTO_PREFIX) &&
  !name.startsWith(VOICE_PREFIX)

/** The only pictures the site stores (uploads and the demo are re-encoded JPEG); the type by name. */
const PICTURE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
}

/** A picture's Content-Type by its name; undefined for anything that is not a picture. */
export const pictureType = (name: string): string | undefined =>
  PICTURE_TYPES[/\.(\w+)$/.exec(name)?.[1]?.toLowerCase() ?? '']

const missing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT'

/** Pictures as files in `dir`. */
export function diskStore(dir: string): PictureStore {
  const root = resolve(dir)
  const path = (name: string) => {
    if (!isPictureName(name)) throw new Error(`not a picture name: ${JSON.stringify(name)}`)
    return join(root, name)
  }
  return {
    description: `disk ${root}`,
    async put(name, bytes) {
      const final = path(name)
      await mkdir(dirname(final), { recursive: true })
      // Written under a temporary name, renamed when complete: the final name
      // never has a half-written file behind it.
      const temp = join(dirname(final), `.upload-${randomBytes(6).toString('hex')}`)
      try {
        await writeFile(temp, bytes, { flag: 'wx' })
        await rename(temp, final)
      } catch (e) {
        await unlink(temp).catch(() => undefined)
        throw e
      }
    },
    async get(name) {
      if (!isPictureName(name)) return null
      try {
        const file = path(name)
        const [bytes, info] = await Promise.all([readFile(file), stat(file)])
        return {
          bytes,
          etag: `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
        }
      } catch (e) {
        if (missing(e) || (e as NodeJS.ErrnoException).code === 'EISDIR') return null
        throw e
      }
    },
    async delete(names) {
      for (const name of names) {
        if (!isPictureName(name)) continue
        try {
          await unlink(path(name))
        } catch (e) {
          if (!missing(e)) throw e
        }
      }
    },
    async list(prefix) {
      try {
        const entries = await readdir(root)
        return entries.filter((f) => f.startsWith(prefix) && isPictureName(f)).sort()
      } catch (e) {
        if (missing(e)) return []
        throw e
      }
    },
  }
}

export type S3StoreOptions = Extract<StorageConfig, { kind: 's3' }>

/**
 * Pictures as objects of one bucket. The AWS SDK reads the credentials and
 * checksum settings from its standard variables itself (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_REQUEST_CHECKSUM_CALCULATION …); a custom
 * endpoint (MinIO, a stand-in) gets path-style addressing.
 */
export function s3Store({ bucket, endpoint, region }: S3StoreOptions): PictureStore {
  const client = new S3Client({
    ...(region ? { region } : {}),
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
  })
  return {
    description: `S3 bucket ${bucket}${endpoint ? ` at ${endpoint}` : ''}`,
    async put(name, bytes, contentType) {
      if (!isPictureName(name)) throw new Error(`not a picture name: ${JSON.stringify(name)}`)
      // One PUT: the object appears whole or not at all.
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: name, Body: bytes, ContentType: contentType }),
      )
    },
    async get(name) {
      if (!isPictureName(name)) return null
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: name }))
        if (!out.Body) return null
        const bytes = await out.Body.transformToByteArray()
        return { bytes, etag: out.ETag ?? `"${bytes.length.toString(16)}"` }
      } catch (e) {
        if (notFound(e)) return null
        throw e
      }
    },
    async delete(names) {
      // One DELETE per object: deleting a missing key succeeds, and it needs
      // no Content-MD5, which some stand-ins insist on for DeleteObjects.
      for (const name of names) {
        if (!isPictureName(name)) continue
        try {
          await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: name }))
        } catch (e) {
          if (!notFound(e)) throw e
        }
      }
    },
    async list(prefix) {
      const names: string[] = []
      let token: string | undefined
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            ...(token ? { ContinuationToken: token } : {}),
          }),
        )
        for (const o of page.Contents ?? []) if (o.Key) names.push(o.Key)
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
      return names.sort()
    },
  }
}

const notFound = (e: unknown) => {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } }
  return (
    err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404
  )
}

/**
 * Runs a request's store call; a store that fails (down, refusing the
 * credentials) answers 503 `storage_unavailable` instead of a 500: the
 * client may try again, nothing was changed.
 */
export async function withStore<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (e) {
    if (e instanceof ApiFailure) throw e
    console.error('media: the picture store failed', e)
    throw new ApiFailure(503, 'storage_unavailable')
  }
}

/** The store the configuration names (api/config.ts loadStorageConfig). */
export const storeOf = (config: StorageConfig): PictureStore =>
  config.kind === 's3' ? s3Store(config) : diskStore(config.dir)
