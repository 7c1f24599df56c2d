// Face match for photo verification: the machine measures, a person decides
// unless the measure is clear (docs/operator-console.md, "Face match").
// @vladmandic/human runs in this process on TensorFlow.js's WASM backend
// (no native build, no GPU): its models ship inside the npm package
// (node_modules/@vladmandic/human/models/) and are read from disk; the WASM
// binaries come from node_modules/@tensorflow/tfjs-backend-wasm/dist/.
// Nothing is fetched from the network: human loads its models with the
// global fetch, which Node's cannot do for file:// addresses, so `load`
// lends it one that reads those files and refuses every other address.
//
// What is read of a selfie: how many faces, the head's yaw/pitch/roll (from
// the face mesh) and the face descriptor (1024 numbers, human's faceres
// model); of each approved profile photo: the descriptor of its one face.
// Similarity is human's `match.similarity` (0..1, 1 = the same vector).
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Human } from '@vladmandic/human'
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

const require = createRequire(import.meta.url)
/** The package's folder: its `exports` name no subpath, so it is found from its main file. */
const humanDist = dirname(require.resolve('@vladmandic/human'))
const modelDir = join(humanDist, '..', 'models')
const wasmDir = dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))

let engine: Promise<Human> | null = null
/** Every address human asked for while loading (the tests check they are all local files). */
export const loadedUrls: string[] = []

/** A fetch for file:// addresses only: the models are read from the package, never downloaded. */
async function localFetch(input: unknown): Promise<Response> {
  const url = String(input instanceof Request ? input.url : input)
  loadedUrls.push(url)
  if (!url.startsWith('file://')) throw new Error(`face match: no network (${url})`)
  return new Response(await readFile(fileURLToPath(url)))
}

async function load(): Promise<Human> {
  const { Human: HumanClass } = require(join(humanDist, 'human.node-wasm.js')) as {
    Human: new (config: object) => Human
  }
  const human = new HumanClass({
    backend: 'wasm',
    debug: false,
    modelBasePath: pathToFileURL(`${modelDir}/`).href,
    wasmPath: pathToFileURL(`${wasmDir}/`).href,
    cacheModels: false,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: false, maxDetected: 4, minConfidence: 0.5, return: false },
      mesh: { enabled: true },
      iris: { enabled: false },
      description: { enabled: true },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  })
  const fetch = globalThis.fetch
  globalThis.fetch = localFetch as typeof globalThis.fetch
  try {
    await human.load()
  } finally {
    globalThis.fetch = fetch
  }
  return human
}

/** The engine, loaded once per process on first use (about half a second). */
export function faceEngine(): Promise<Human> {
  engine ??= load().catch((e) => {
    engine = null
    throw e
  })
  return engine
}

/** Reads the faces of a picture (JPEG/PNG/WebP bytes; EXIF rotation applied). */
export async function readFace(bytes: Uint8Array): Promise<FaceReading> {
  const human = await faceEngine()
  const { data, info } = await sharp(bytes)
    .rotate()
    .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const input = human.tf.tensor4d(Int32Array.from(data), [1, info.height, info.width, 3], 'int32')
  try {
    const result = await human.detect(input)
    const faces = [...result.face].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])
    const main = faces[0]
    if (!main) return { faces: 0, yaw: null, pitch: null, roll: null, descriptor: null }
    const area = main.box[2] * main.box[3]
    const angle = main.rotation?.angle
    return {
      // A face with less than a ninth of the main face's area is someone far behind.
      faces: faces.filter((f) => f.box[2] * f.box[3] * 9 >= area).length,
      yaw: angle?.yaw ?? null,
      pitch: angle?.pitch ?? null,
      roll: angle?.roll ?? null,
      descriptor: main.embedding && main.embedding.length > 0 ? [...main.embedding] : null,
    }
  } finally {
    input.dispose()
  }
}

/** How alike two descriptors are, 0..1 (human's `match.similarity`). */
export async function similarity(a: number[], b: number[]): Promise<number> {
  const human = await faceEngine()
  return human.match.similarity(a, b)
}

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
