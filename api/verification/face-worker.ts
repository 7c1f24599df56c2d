// The face engine's own thread (started by face-match.ts through
// face-worker-boot.mjs): @vladmandic/human on TensorFlow.js's WASM backend
// reads faces here, so the API's main thread stays free while a picture takes
// its second of CPU. The engine is loaded once, on the first request; requests
// run one after the other in the order they came.
//
// Its models ship inside the npm package (node_modules/@vladmandic/human/models/)
// and are read from disk; the WASM binaries come from
// node_modules/@tensorflow/tfjs-backend-wasm/dist/. Nothing is fetched from
// the network: human loads its models with the global fetch, which Node's
// cannot do for file:// addresses, so `load` lends it one that reads those
// files and refuses every other address.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parentPort } from 'node:worker_threads'
import type { Human } from '@vladmandic/human'
import type { FaceReading, FaceReply, FaceRequest } from './face-match.ts'

const require = createRequire(import.meta.url)
/** The package's folder: its `exports` name no subpath, so it is found from its main file. */
const humanDist = dirname(require.resolve('@vladmandic/human'))
const modelDir = join(humanDist, '..', 'models')
const wasmDir = dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))

let engine: Promise<Human> | null = null
/** Every address human asked for while loading (the tests check they are all local files). */
const loadedUrls: string[] = []

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
    // Every picture is read on its own: stills of different people, not the
    // frames of one video (human's default reuses a reading for a like input).
    cacheSensitivity: 0,
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

/** The engine, loaded once in this thread on first use (about half a second). */
function faceEngine(): Promise<Human> {
  engine ??= load().catch((e) => {
    engine = null
    throw e
  })
  return engine
}

/** Reads the faces of a picture's RGB pixels (already rotated and scaled by the caller). */
async function read(pixels: Uint8Array, width: number, height: number): Promise<FaceReading> {
  const human = await faceEngine()
  const input = human.tf.tensor4d(Int32Array.from(pixels), [1, height, width, 3], 'int32')
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

async function answer(req: FaceRequest): Promise<unknown> {
  switch (req.op) {
    case 'read':
      return read(req.pixels, req.width, req.height)
    case 'similarities': {
      const human = await faceEngine()
      return req.list.map((b) => human.match.similarity(req.a, b))
    }
    case 'urls':
      await faceEngine()
      return [...loadedUrls]
  }
}

const port = parentPort
if (!port) throw new Error('face-worker.ts runs as a worker thread (face-match.ts starts it)')
let queue: Promise<void> = Promise.resolve()
port.on('message', (req: FaceRequest) => {
  queue = queue.then(async () => {
    let reply: FaceReply
    try {
      reply = { id: req.id, ok: true, value: await answer(req) }
    } catch (e) {
      reply = { id: req.id, ok: false, error: e instanceof Error ? e.message : String(e) }
    }
    port.postMessage(reply)
  })
})
