// Demo pictures: DiceBear "avataaars" cartoon portraits, varied by gender and
// age, rasterised to JPEG with sharp. avataaars was the cheapest style to
// rasterise of those measured (about 3 ms of SVG rendering per picture here)
// and has the hair and beard choices that let a picture match its profile.
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { avataaars } from '@dicebear/collection'
import { createAvatar, type StyleOptions } from '@dicebear/core'
import sharp from 'sharp'
import type { Gender } from './names.ts'

export const IMAGE_SIZE = 400
export const THUMB_SIZE = 160
const IMAGE_QUALITY = 82
const THUMB_QUALITY = 78

type AvataaarsOptions = StyleOptions<avataaars.Options>
type Top = NonNullable<avataaars.Options['top']>[number]

const FEMALE_TOPS: Top[] = [
  'bob',
  'bun',
  'curly',
  'curvy',
  'fro',
  'longButNotTooLong',
  'miaWallace',
  'straight01',
  'straight02',
  'straightAndStrand',
  'bigHair',
]
const MALE_TOPS: Top[] = [
  'shortFlat',
  'shortRound',
  'shortWaved',
  'shortCurly',
  'sides',
  'theCaesar',
  'theCaesarAndSidePart',
  'frizzle',
  'shaggy',
  'dreads01',
]
// Thinner and shorter styles for older men (avataaars has no bald top).
const OLDER_MALE_TOPS: Top[] = ['sides', 'shortFlat', 'theCaesar', 'shortRound']

// Natural hair colours (the pastel pink of the default palette reads as
// costume); grey and platinum are reserved for older members.
const HAIR = ['a55728', '2c1b18', 'b58143', 'd6b370', '724133', '4a312c', 'c93305']
const GREY = ['e8e1e1', 'ecdcbf']
// Realistic skin tones only; the default palette also has yellow and orange.
const SKIN = ['614335', 'd08b5b', 'ae5d29', 'edb98a', 'ffdbb4']
const BACKGROUNDS = ['b6e3f4', 'c0aede', 'd1d4f9', 'ffd5dc', 'ffdfbf', 'c1f0d1', 'e3e8ef']

/** Avataaars options for a member: expressions stay friendly, it is a dating profile. */
export function avatarOptions(seed: string, gender: Gender, age: number): AvataaarsOptions {
  const older = age >= 55
  const greying = age >= 45 && age < 55
  return {
    seed,
    backgroundColor: BACKGROUNDS,
    top: gender === 'female' ? FEMALE_TOPS : older ? OLDER_MALE_TOPS : MALE_TOPS,
    topProbability: 100,
    hairColor: older ? GREY : greying ? [...HAIR, ...GREY] : HAIR,
    facialHair:
      gender === 'male' ? ['beardLight', 'beardMedium', 'beardMajestic', 'moustacheFancy'] : [],
    facialHairProbability: gender === 'male' ? (age >= 30 ? 45 : 25) : 0,
    facialHairColor: older ? GREY : HAIR,
    skinColor: SKIN,
    mouth: ['smile', 'default', 'twinkle', 'serious'],
    eyes: ['default', 'happy', 'wink', 'squint', 'side'],
    eyebrows: ['defaultNatural', 'flatNatural', 'raisedExcitedNatural', 'upDownNatural', 'default'],
    // Reading glasses become likely with age.
    accessories: older
      ? ['prescription01', 'prescription02', 'round']
      : ['wayfarers', 'round', 'kurt'],
    accessoriesProbability: older ? 45 : 10,
  }
}

/** The member's portrait as SVG, `size` pixels square; same face at any size. */
export const avatarSvg = (seed: string, gender: Gender, age: number, size = IMAGE_SIZE): string =>
  createAvatar(avataaars, { ...avatarOptions(seed, gender, age), size }).toString()

/**
 * Picture and thumbnail. Rasterising the SVG (rsvg) is most of the cost, so
 * the thumbnail is rasterised at its own 160 px instead of scaling down a
 * second 400 px rendering: about a third less work per member. With
 * `cacheDir`, a pair rendered before (by any process) is read from there.
 */
export async function renderAvatarPair(
  seed: string,
  gender: Gender,
  age: number,
  cacheDir?: string,
): Promise<{ image: Buffer; thumb: Buffer }> {
  const svg = avatarSvg(seed, gender, age)
  const thumbSvg = avatarSvg(seed, gender, age, THUMB_SIZE)
  const render = async () => {
    const [image, thumb] = await Promise.all([
      sharp(Buffer.from(svg)).jpeg({ quality: IMAGE_QUALITY }).toBuffer(),
      sharp(Buffer.from(thumbSvg)).jpeg({ quality: THUMB_QUALITY }).toBuffer(),
    ])
    return { image, thumb }
  }
  return cacheDir ? cachedPair(cacheDir, pairKey(svg, thumbSvg), render) : render()
}

/**
 * The cache key of a pair: the hash of what is rasterised and how, so a
 * change of style, options or quality misses instead of serving old faces.
 */
const pairKey = (svg: string, thumbSvg: string) =>
  createHash('sha256')
    .update(`${sharp.versions.vips}\0${IMAGE_QUALITY}\0${THUMB_QUALITY}\0${svg}\0${thumbSvg}`)
    .digest('hex')

/**
 * A render cache in a directory (DEMO_AVATAR_CACHE, api/config.ts): the
 * demo seed of every fresh start renders the same 2,400 faces, which is
 * nine tenths of a demo start's time (the browser tests start about
 * forty sites). Files are written whole under a temporary name and renamed,
 * so processes seeding at once never read half a file; a missing or broken
 * cache only means rendering.
 */
async function cachedPair(
  dir: string,
  key: string,
  render: () => Promise<{ image: Buffer; thumb: Buffer }>,
): Promise<{ image: Buffer; thumb: Buffer }> {
  const [imagePath, thumbPath] = [join(dir, `${key}.jpg`), join(dir, `${key}_t.jpg`)]
  try {
    const [image, thumb] = await Promise.all([readFile(imagePath), readFile(thumbPath)])
    return { image, thumb }
  } catch {
    const pair = await render()
    await mkdir(dir, { recursive: true })
    const put = async (path: string, bytes: Buffer) => {
      const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
      await writeFile(tmp, bytes)
      await rename(tmp, path)
    }
    await Promise.all([put(imagePath, pair.image), put(thumbPath, pair.thumb)]).catch(
      () => undefined,
    )
    return pair
  }
}

/** A server-made picture name, as uploads get: random hex, never reused. */
export function newImageNames(): { filename: string; thumbFilename: string } {
  const base = randomBytes(12).toString('hex')
  return { filename: `${base}.jpg`, thumbFilename: `${base}_t.jpg` }
}

/**
 * Where the seed puts its pictures: the site's picture store
 * (api/images/storage.ts, a directory or an S3 bucket), injected so db/
 * never imports api/.
 */
export interface PictureSink {
  put(name: string, bytes: Uint8Array, contentType: string): Promise<void>
}

/** Renders a member's picture into the store and returns the file names to store. */
export async function saveAvatar(
  pictures: PictureSink,
  seed: string,
  gender: Gender,
  age: number,
  cacheDir?: string,
): Promise<{ filename: string; thumbFilename: string }> {
  const { image, thumb } = await renderAvatarPair(seed, gender, age, cacheDir)
  const names = newImageNames()
  await Promise.all([
    pictures.put(names.filename, image, 'image/jpeg'),
    pictures.put(names.thumbFilename, thumb, 'image/jpeg'),
  ])
  return names
}
