// Faces for the face-match tests and bench, cut from a picture that ships in
// the @vladmandic/human package (assets/screenshot-facematch.jpg: a grid of
// 18 × 6 face crops, 1920 × 954): nothing is downloaded and no picture of a
// person is committed here. Cell (row, col) of the grid; `mirror` flips it
// left to right; `scale`, `brightness` and `quality` make an augmented copy
// (the same picture re-encoded, resized, brightened).
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import sharp from 'sharp'

const require = createRequire(import.meta.url)
export const SAMPLE_GRID = join(
  dirname(require.resolve('@vladmandic/human')),
  '..',
  'assets',
  'screenshot-facematch.jpg',
)
export const GRID_ROWS = 6
export const GRID_COLS = 18

export interface FaceOptions {
  mirror?: boolean
  scale?: number
  brightness?: number
  quality?: number
}

/** One face of the grid as a JPEG, 312 × 330 pixels unless scaled. */
export async function sampleFace(row: number, col: number, o: FaceOptions = {}): Promise<Buffer> {
  const size = (n: number) => Math.round(n * 3 * (o.scale ?? 1))
  let img = sharp(SAMPLE_GRID)
    .extract({
      left: Math.round(3 + col * 106.67),
      top: Math.round(280 + row * 112),
      width: 104,
      height: 110,
    })
    .resize(size(104), size(110))
  if (o.mirror) img = img.flop()
  if (o.brightness) img = img.modulate({ brightness: o.brightness })
  return img.jpeg({ quality: o.quality ?? 90 }).toBuffer()
}
