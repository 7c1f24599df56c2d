// Screenshot baselines (e2e/baselines/): each screenshot is scaled to half
// size and stored as a palette PNG, so a baseline is a few kilobytes; a new
// screenshot goes through the same steps before it is compared, pixel by
// pixel with a tolerance (anti-aliasing and font hinting move a few pixels).
// Locally a missing baseline is written and reported loudly; UPDATE_BASELINES=1
// rewrites them all after an intended design change (docs/sites-and-templates.md,
// "Checks"). Under CI (CI set) nothing is ever written: a missing
// baseline fails, or a deleted one would pass any screen (baselineAction,
// tested in tools/baseline.test.ts).
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

/** The environment variables the decision reads. */
export interface BaselineEnv {
  CI?: string | undefined
  UPDATE_BASELINES?: string | undefined
}

/** CI=true (or any value but empty, 0 and false), as CI services set it. */
export const isCi = (env: BaselineEnv): boolean =>
  env.CI !== undefined && !['', '0', 'false'].includes(env.CI.trim().toLowerCase())

export type BaselineAction =
  | { kind: 'compare' }
  | { kind: 'write'; reason: 'missing' | 'update' }
  | { kind: 'fail'; message: string }

const HOW_TO_MAKE =
  'Make baselines locally: run the browser tests without CI (a missing baseline is written) ' +
  'or with UPDATE_BASELINES=1 (all are rewritten), look at the PNGs, and commit them.'

/**
 * What to do with the baseline at `path`: compare with it, write it, or fail.
 * CI never writes one: a missing baseline written there would pass whatever
 * the screen shows, and so would a rewrite of all of them.
 */
export function baselineAction(path: string, exists: boolean, env: BaselineEnv): BaselineAction {
  const update = env.UPDATE_BASELINES === '1'
  if (isCi(env)) {
    if (update)
      return {
        kind: 'fail',
        message: `UPDATE_BASELINES=1 is refused under CI (CI=${env.CI}): a rewrite there would hide any change. ${HOW_TO_MAKE}`,
      }
    if (!exists)
      return {
        kind: 'fail',
        message: `Screenshot baseline missing: ${path}. CI (CI=${env.CI}) does not write baselines, so nothing was compared. ${HOW_TO_MAKE}`,
      }
    return { kind: 'compare' }
  }
  if (update) return { kind: 'write', reason: 'update' }
  if (!exists) return { kind: 'write', reason: 'missing' }
  return { kind: 'compare' }
}

/**
 * Compares `png` with the baseline at `path`, or writes it (locally, see
 * baselineAction); throws when a baseline is missing under CI.
 */
export async function checkBaseline(
  path: string,
  png: Buffer,
  env: BaselineEnv = process.env,
): Promise<Verdict> {
  const action = baselineAction(path, existsSync(path), env)
  if (action.kind === 'fail') throw new Error(action.message)
  const small = await shrink(png)
  if (action.kind === 'write') {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, small)
    if (action.reason === 'missing')
      console.warn(
        `\n!!! SCREENSHOT BASELINE WAS MISSING AND HAS BEEN WRITTEN: ${path}\n` +
          '!!! Nothing was compared for this screen. Look at the PNG before committing it;\n' +
          '!!! under CI a missing baseline fails.\n',
      )
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
  const share = differing / (a.data.length / 4)
  // A screen that does not match is kept beside its baseline (ignored by git)
  // so the failure can be looked at, not only counted.
  if (share > MAX_DIFF_SHARE) writeFileSync(path.replace(/\.png$/, '.actual.png'), small)
  return { kind: 'compared', share, path }
}
