// Removing a picture's files (objects of the picture store, api/images/storage.ts:
// a directory or an S3 bucket). The database change comes first: the row (and
// every reference to it) goes, and a `media.delete` job naming its files is
// enqueued in the same transaction. After the commit the request deletes the
// files itself at once; the job, run by the queue a moment later (and retried
// with backoff, by whichever process polls first), deletes whatever the
// request could not (a crash between commit and delete, a store that did not
// answer). So no row ever points at a missing file, and no removed picture's
// file outlives its job. Deleting a file that is already gone is a no-op, so
// the job is safe to repeat.
import { basename } from 'node:path'
import type { Db } from '../../db/client.ts'
import { enqueue, type JobHandlers } from '../jobs/queue.ts'
import type { PictureStore } from './storage.ts'

export const MEDIA_DELETE_JOB = 'media.delete'

/** A stored picture's name: made by the server (images.ts) or the demo seed; never a path. */
const safeName = (f: string) =>
  f.length > 0 && f.length <= 200 && basename(f) === f && !f.startsWith('.')

/** The files of removed image rows, for removeMediaFiles and the job. */
export const filesOf = (rows: { filename: string; thumbFilename: string }[]) =>
  rows.flatMap((r) => [r.filename, r.thumbFilename])

/** Enqueues the files' deletion; call with the transaction that deletes their rows. */
export async function queueFileRemoval(tx: Db, files: string[]): Promise<void> {
  if (files.length > 0) await enqueue(tx, { kind: MEDIA_DELETE_JOB, payload: { files } })
}

/** Deletes the files from the store; a missing file is fine, other errors throw. */
export async function removeMediaFiles(store: PictureStore, files: string[]): Promise<void> {
  await store.delete(files.filter(safeName))
}

/**
 * After a commit: the request's own attempt. False when files are left for
 * the queued job (the caller may poke the runner); the job runs either way
 * at the queue's next poll and finds nothing left to do.
 */
export async function removeFilesNow(
  store: PictureStore | undefined,
  files: string[],
): Promise<boolean> {
  if (!store || files.length === 0) return true
  try {
    await removeMediaFiles(store, files)
    return true
  } catch (e) {
    console.error('media: files left for the media.delete job', e)
    return false
  }
}

/** The job's handler; without a store there is nothing to delete. */
export const mediaJobHandlers = (store: PictureStore | undefined): JobHandlers => ({
  [MEDIA_DELETE_JOB]: async (payload) => {
    const files = (payload as { files?: unknown }).files
    if (!store || !Array.isArray(files)) return
    await removeMediaFiles(
      store,
      files.filter((f): f is string => typeof f === 'string'),
    )
  },
})
