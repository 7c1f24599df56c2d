// Face match figures on this machine (docs/operator-console.md, "Face match"):
// false-accept and false-reject rates at several similarity thresholds, and
// seconds per reading and per check, with the faces the @vladmandic/human
// package ships (api/test/sample-faces.ts: a grid of face crops).
//
// Same-person pairs: a face and an augmented copy of the same crop (resized,
// brightened or darkened, re-encoded at a lower JPEG quality). That is far
// easier than two different photos of one person, so the false-reject rate
// is optimistic. Different-person pairs: two different cells of rows 1-5
// (row 0 is mostly one man, left out); the grid may show one person in two
// cells, which counts as a false accept here, so that rate is, if anything,
// pessimistic.
//
//   node --import tsx bench/face-match.ts        (FACES=30 for a quicker run)
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { AUTO_SIMILARITY, readFace, similarity } from '../api/verification/face-match.ts'
import { GRID_COLS, GRID_ROWS, sampleFace } from '../api/test/sample-faces.ts'

const THRESHOLDS = [0.6, 0.7, 0.75, 0.8, 0.85, 0.9]
const limit = Number(process.env.FACES ?? GRID_COLS * (GRID_ROWS - 1))

const cells: [number, number][] = []
for (let row = 1; row < GRID_ROWS; row++)
  for (let col = 0; col < GRID_COLS; col++) cells.push([row, col])

const load = loadavg()[0]?.toFixed(1)
const started = performance.now()
await readFace(await sampleFace(1, 0)) // loads the engine
const loadSeconds = (performance.now() - started) / 1000

const originals: { cell: [number, number]; d: number[] }[] = []
const same: number[] = []
const readTimes: number[] = []
let skipped = 0
for (const [i, [row, col]] of cells.slice(0, limit).entries()) {
  const t0 = performance.now()
  const face = await readFace(await sampleFace(row, col))
  readTimes.push(performance.now() - t0)
  if (face.faces !== 1 || !face.descriptor) {
    skipped++
    continue
  }
  // A different augmentation for each face, from mild to strong.
  const copy = await readFace(
    await sampleFace(row, col, {
      scale: [0.5, 0.7, 1.3][i % 3],
      brightness: [0.75, 1.25, 1.1, 0.9][i % 4],
      quality: [50, 70, 85][i % 3],
    }),
  )
  originals.push({ cell: [row, col], d: face.descriptor })
  // An augmented copy with no face found is a false reject at every threshold.
  same.push(copy.descriptor ? await similarity(face.descriptor, copy.descriptor) : 0)
}

const different: number[] = []
for (let i = 0; i < originals.length; i++)
  for (let j = i + 1; j < originals.length; j++) {
    const a = originals[i]
    const b = originals[j]
    if (a && b) different.push(await similarity(a.d, b.d))
  }

const pct = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(2)} %`
const readSeconds = readTimes.reduce((a, b) => a + b, 0) / readTimes.length / 1000
console.log(
  `face match bench: ${originals.length} faces (${skipped} cells without exactly one face), ` +
    `${same.length} same-person pairs (augmented copies), ${different.length} different-person pairs; ` +
    `load average ${load}`,
)
console.log('| threshold | false accepts | false rejects |')
console.log('|---|---|---|')
for (const th of THRESHOLDS)
  console.log(
    `| ${th.toFixed(2)}${th === AUTO_SIMILARITY ? ' (auto)' : ''} | ${pct(
      different.filter((s) => s >= th).length,
      different.length,
    )} (${different.filter((s) => s >= th).length}) | ${pct(
      same.filter((s) => s < th).length,
      same.length,
    )} (${same.filter((s) => s < th).length}) |`,
  )
const sorted = [...different].sort((a, b) => b - a)
console.log(
  `different people: highest ${sorted[0]?.toFixed(2)}, median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(2)}; ` +
    `same (augmented): lowest ${Math.min(...same).toFixed(2)}`,
)
console.log(
  `engine load ${loadSeconds.toFixed(2)} s; one picture read ${readSeconds.toFixed(2)} s; ` +
    `a check with one profile photo (two reads) ${(2 * readSeconds).toFixed(2)} s`,
)
