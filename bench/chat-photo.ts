// A photo (or, with --voice, a voice message) in a chat, from the sender's
// upload to the recipient's screen: the multipart send (checks, re-encoding
// or the container check, the picture store, the debit), the recipient's
// stream poke, their pull of the new message and their fetch of the
// photo's or recording's bytes, as the app does them. Prints p50/p95; never gates.
//
//   node --import tsx bench/chat-photo.ts [--photos=30] [--width=1600] [--height=1200]
//   node --import tsx bench/chat-photo.ts --voice [--photos=30] [--seconds=30] [--kbps=32]
//
// One pair of members on a real HTTP server (@hono/node-server) in this
// process, the pictures on disk; PGlite, or PostgreSQL with DATABASE_URL.
// A voice recording is a WebM made in code (api/test/voice-fixtures.ts) of
// `--seconds` filled to `--kbps` of Opus, as MediaRecorder would send it.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os, { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { credit } from '../api/credits/ledger.ts'
import { createLogger } from '../api/http/request-log.ts'
import { freshDatabase } from '../api/test/databases.ts'
import { addConversation, addMembers } from '../api/test/seed.ts'
import { webmRecording } from '../api/test/voice-fixtures.ts'
import { sessions } from '../db/schema/index.ts'
import { startServer } from './api-server.ts'
import { summarise } from './stats.ts'

const arg = (name: string, fallback: number) => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`))
  return hit ? Number(hit.split('=')[1]) : fallback
}
const PHOTOS = arg('photos', 30)
const WIDTH = arg('width', 1600)
const HEIGHT = arg('height', 1200)
const VOICE = process.argv.includes('--voice')
const SECONDS = arg('seconds', 30)
const KBPS = arg('kbps', 32)

/** A phone-sized JPEG with noise in it (a flat colour would compress to nothing). */
async function phonePhoto(seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(WIDTH * HEIGHT * 3)
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 31 + seed * 97 + (i >> 7)) & 0xff
  return sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer()
}

const engine = process.env.DATABASE_URL ? 'postgres' : 'pglite'
const database = await freshDatabase(engine)
const mediaDir = await mkdtemp(join(tmpdir(), 'bench-chat-photo-'))
const server = await startServer(database.db, database.listen, {
  mediaDir,
  memberLimits: false,
  logger: createLogger({ LOG_LEVEL: 'silent' }),
})
const base = server.url
const [a, b] = await addMembers(database.db, [{}, {}])
const cookieOf = async (id: number) => {
  const token = randomBytes(32).toString('base64url')
  await database.db.insert(sessions).values({
    tokenHash: createHash('sha256').update(token).digest('hex'),
    memberId: id,
    expiresAt: new Date(Date.now() + 86_400_000),
  })
  return `sid=${token}`
}
const [cookieA, cookieB] = [await cookieOf(a!.id), await cookieOf(b!.id)]
await database.db.transaction((tx) => credit(tx, a!.id, 1_000_000, 'bonus', 'bench'))
const conversation = await addConversation(database.db, a!.id, b!.id)
const post = (path: string, body: BodyInit, json = false) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    body,
    headers: {
      cookie: cookieA,
      origin: base,
      ...(json ? { 'content-type': 'application/json' } : {}),
    },
  })
// A text opens the conversation: a photo never does from an unverified member.
const opened = await post(
  '/api/messages.php',
  JSON.stringify({ conversation, text: 'Hello', client_id: randomUUID() }),
  true,
)
if (opened.status !== 201) throw new Error(`opening: ${opened.status}`)

// The recipient's stream: a poke makes them pull what is new and fetch its photo.
const arrived = new Map<string, number>()
const waiting = new Map<string, () => void>()
let lastSeen = 0
const abort = new AbortController()
const stream = await fetch(`${base}/api/events.php`, {
  headers: { cookie: cookieB },
  signal: abort.signal,
})
const reader = stream.body!.getReader()
const decoder = new TextDecoder()
let buffer = ''
let ready: () => void = () => {}
const isReady = new Promise<void>((r) => {
  ready = r
})
void (async () => {
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }))
    if (done) return
    buffer += decoder.decode(value)
    if (buffer.includes('event: ready')) ready()
    let cut = buffer.indexOf('\n\n')
    while (cut >= 0) {
      const block = buffer.slice(0, cut)
      buffer = buffer.slice(cut + 2)
      cut = buffer.indexOf('\n\n')
      if (!block.includes('event: poke') || !block.includes('"messages"')) continue
      const res = await fetch(
        `${base}/api/messages.php?conversation=${conversation}${lastSeen ? `&after=${lastSeen}` : ''}`,
        { headers: { cookie: cookieB } },
      )
      if (!res.ok) throw new Error(`pull: ${res.status} ${await res.text()}`)
      const page = (await res.json()) as {
        messages: { id: number; client_id: string; photo?: string; voice?: { url: string } }[]
      }
      for (const m of page.messages) {
        lastSeen = Math.max(lastSeen, m.id)
        const url = m.photo ?? m.voice?.url
        if (!url) continue
        const bytes = await (
          await fetch(`${base}${url}`, { headers: { cookie: cookieB } })
        ).arrayBuffer()
        if (bytes.byteLength === 0) throw new Error('an empty photo')
        arrived.set(m.client_id, performance.now())
        waiting.get(m.client_id)?.()
      }
    }
  }
})()
await isReady

const upload: number[] = []
const endToEnd: number[] = []
let size = 0
for (let n = 0; n < PHOTOS; n++) {
  const clientId = randomUUID()
  const seen = new Promise<void>((r) => waiting.set(clientId, r))
  const form = new FormData()
  form.append('conversation', String(conversation))
  form.append('client_id', clientId)
  if (VOICE) {
    // Each recording differs a little (its length), as each upload does.
    const recording = webmRecording({ durationMs: SECONDS * 1000 - n * 100, bitrate: KBPS * 1000 })
    size = recording.length
    form.append('duration_ms', String(SECONDS * 1000 - n * 100))
    form.append('file', new File([new Uint8Array(recording)], 'voice.webm', { type: 'audio/webm' }))
  } else {
    const photo = await phonePhoto(n)
    size = photo.length
    form.append('text', `photo ${n}`)
    form.append('file', new File([new Uint8Array(photo)], 'photo.jpg', { type: 'image/jpeg' }))
  }
  const start = performance.now()
  const res = await post(VOICE ? '/api/message-voice.php' : '/api/message-photo.php', form)
  const accepted = performance.now()
  if (res.status !== 201) throw new Error(`photo ${n}: ${res.status} ${await res.text()}`)
  await seen
  upload.push(accepted - start)
  endToEnd.push((arrived.get(clientId) ?? performance.now()) - start)
}
abort.abort()
await server.close()
await database.close()
await rm(mediaDir, { recursive: true, force: true })

const line = (label: string, values: number[]) => {
  const s = summarise(values)
  console.log(
    `${label.padEnd(44)} p50 ${s.p50.toFixed(0).padStart(5)} ms   p95 ${s.p95.toFixed(0).padStart(5)} ms`,
  )
}
console.log(
  VOICE
    ? `chat voice: ${PHOTOS} recordings of ${SECONDS} s (${(size / 1024).toFixed(0)} KB WebM at ${KBPS} kbit/s), ${engine}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`
    : `chat photo: ${PHOTOS} photos of ${WIDTH}×${HEIGHT} (${(size / 1024).toFixed(0)} KB JPEG), ${engine}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`,
)
line('upload: send answered (201)', upload)
line(`upload to recipient (poke, pull, ${VOICE ? 'recording' : 'photo'} bytes)`, endToEnd)
