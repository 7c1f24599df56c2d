// Screenshot baselines (e2e/baselines/): each screenshot is scaled to half
// size and stored as a palette PNG, so a baseline is a few kilobytes; a new
// screenshot goes through the same steps before it is compared, pixel by
// pixel with a tolerance (anti-aliasing and font hinting move a few pixels).
// A missing baseline is written and reported; UPDATE_BASELINES=1 rewrites
// them all after an intended design change (README "Templates, niches and
// sites").
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import sharp from 'sharp'

/** A pixel differs when a channel moved by more than this (0-255). */
const CHANNEL_TOLERANCE = 48
/** A screenshot matches when at most this share of its pixels differ. */
export const MAX_DIFF_SHARE = 0.01

const shrink = async (png: Buffer) => {
  const meta = await sharp(png).metadata()
  return sharp(png)
    .resize({ width: Math.round((meta.width ?? 2) / 2) })
    .png({ palette: true, colours: 128, effort: 4 })
    .toBuffer()
}

const pixels = (png: Buffer) => sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })

export type Verdict =
  | { kind: 'written'; path: string }
  | { kind: 'compared'; share: number; path: string }

/** Compares `png` with the baseline at `path` (or writes it). */
export async function checkBaseline(path: string, png: Buffer): Promise<Verdict> {
  const small = await shrink(png)
  if (!existsSync(path) || process.env.UPDATE_BASELINES === '1') {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, small)
    return { kind: 'written', path }
  }
  const [a, b] = await Promise.all([pixels(small), pixels(await sharp(path).png().toBuffer())])
  if (a.info.width !== b.info.width || a.info.height !== b.info.height)
    return { kind: 'compared', share: 1, path }
  let differing = 0
  for (let i = 0; i < a.data.length; i += 4) {
    for (let ch = 0; ch < 4; ch++) {
      if (Math.abs((a.data[i + ch] ?? 0) - (b.data[i + ch] ?? 0)) > CHANNEL_TOLERANCE) {
        differing++
        break
      }
    }
  }
  return { kind: 'compared', share: differing / (a.data.length / 4), path }
}
