// Face match for photo verification: the machine measures, a person decides
// unless the measure is clear (docs/operator-console.md, "Face match").
// @vladmandic/human reads the faces in a worker thread of its own
// (face-worker.ts, on TensorFlow.js's WASM backend, its models read from the
// npm package on disk, never from the network): a reading takes about a
// second of CPU, which would otherwise stall every request of this process.
// One worker per process, started on first use and loading the engine once;
// requests wait their turn in it. It does not keep the process alive while
// idle, and stopFaceWorker ends it on shutdown.
//
// What is read of a selfie: how many faces, the head's yaw/pitch/roll (from
// the face mesh) and the face descriptor (1024 numbers, human's faceres
// model); of each approved profile photo: the descriptor of its one face.
// Similarity is human's `match.similarity` (0..1, 1 = the same vector).
import { Worker } from 'node:worker_threads'
import sharp from 'sharp'
import type { HeadTurn } from '../contract/rules/verification.ts'

/**
 * A descriptor at least this similar to one of the member's approved photos
 * is the same person for `face_match = auto` (with the pose right). Chosen
 * from measurements (bench/face-match.ts, bench/RESULTS.md) on the faces
 * the package ships: the most alike different people there (two men in
 * sunglasses) reach 0.81–0.83 (0 of 3,828 different pairs at 0.85); 82 of
 * 88 augmented copies of one picture stay above it; two different photos
 * of one man score 0.47–0.83. So `auto` approves only
 * a clear case and leaves the ordinary one to a moderator: a false accept
 * costs more than a moderator's minute.
 */
export const AUTO_SIMILARITY = 0.85
/**
 * Another account's kept descriptor this similar flags the request (same
 * face, another account). Lower than AUTO_SIMILARITY: a flag only makes a
 * moderator look.
 */
export const SAME_FACE_SIMILARITY = 0.7
/**
 * The head must be turned at least this far (radians, about 14°) the way
 * asked: a frontal face, or one turned the other way (a mirrored picture),
 * fails the pose check.
 */
export const MIN_TURN_YAW = 0.25
/** Pictures are scaled to at most this many pixels a side before reading: enough for the models, quick on a small machine. */
const MAX_SIDE = 640

export interface FaceReading {
  /** Faces found (a face far smaller than the largest is a bystander and is not counted). */
  faces: number
  /** The largest face's head angles in radians; null without a face. */
  yaw: number | null
  pitch: number | null
  roll: number | null
  /** The largest face's descriptor; null without a face. */
  descriptor: number[] | null
}

/** What the main thread asks the worker (face-worker.ts); `id` pairs the answer. */
type Ask =
  | { op: 'read'; pixels: Uint8Array; width: number; height: number }
  | { op: 'similarities'; a: number[]; list: number[][] }
  | { op: 'urls' }
export type FaceRequest = Ask & { id: number }
export type FaceReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string }

let worker: Worker | null = null
let nextId = 1
const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()

/** The process's face worker, started on first use. */
function faceWorker(): Worker {
  if (worker) return worker
  const w = new Worker(new URL('./face-worker-boot.mjs', import.meta.url))
  const failAll = (e: Error) => {
    if (worker === w) worker = null
    for (const [id, p] of waiting) {
      waiting.delete(id)
      p.reject(e)
    }
  }
  w.on('message', (reply: FaceReply) => {
    const p = waiting.get(reply.id)
    if (!p) return
    waiting.delete(reply.id)
    // Idle, the worker does not hold the process open (tests, `npm start` stopping).
    if (waiting.size === 0) w.unref()
    if (reply.ok) p.resolve(reply.value)
    else p.reject(new Error(`face match: ${reply.error}`))
  })
  w.on('error', failAll)
  w.on('exit', (code) => failAll(new Error(`face match: the worker stopped (${code})`)))
  w.unref()
  worker = w
  return w
}

function ask<T>(req: Ask, transfer: ArrayBuffer[] = []): Promise<T> {
  const w = faceWorker()
  const id = nextId++
  return new Promise<T>((resolve, reject) => {
    waiting.set(id, { resolve: resolve as (v: unknown) => void, reject })
    w.ref()
    w.postMessage({ ...req, id }, transfer)
  })
}

/** Ends the face worker (a request still waiting fails); the next reading starts a new one. */
export async function stopFaceWorker(): Promise<void> {
  const w = worker
  worker = null
  if (w) await w.terminate()
}

/**
 * Reads the faces of a picture (JPEG/PNG/WebP bytes; EXIF rotation applied).
 * sharp decodes it here (on libuv's threads, not this one); the worker reads
 * the pixels.
 */
export async function readFace(bytes: Uint8Array): Promise<FaceReading> {
  const { data, info } = await sharp(bytes)
    .rotate()
    .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  // A copy of its own, handed over to the worker without another copy.
  const pixels = new Uint8Array(data)
  return ask<FaceReading>({ op: 'read', pixels, width: info.width, height: info.height }, [
    pixels.buffer,
  ])
}

/** How alike `a` is to each of `list`, 0..1 (human's `match.similarity`), in one request. */
export function similarities(a: number[], list: number[][]): Promise<number[]> {
  if (list.length === 0) return Promise.resolve([])
  return ask<number[]>({ op: 'similarities', a, list })
}

/** How alike two descriptors are, 0..1 (human's `match.similarity`). */
export async function similarity(a: number[], b: number[]): Promise<number> {
  const [s] = await similarities(a, [b])
  if (s === undefined) throw new Error('face match: no similarity')
  return s
}

/** Every address the worker's engine loaded its models from (the tests check they are all local files). */
export const modelUrls = () => ask<string[]>({ op: 'urls' })

/**
 * Whether the head is turned the way asked. In a picture as others see the
 * member (a camera's picture, not a mirror's), a head turned to the member's
 * own left has a positive yaw in human's face mesh, to their right a
 * negative one (measured on the package's sample faces: a picture and its
 * mirror image have opposite yaws). A frontal face fails either turn.
 */
export function poseMatches(turn: HeadTurn, yaw: number | null): boolean {
  if (yaw === null) return false
  return turn === 'left' ? yaw >= MIN_TURN_YAW : yaw <= -MIN_TURN_YAW
}
