// Generates the PWA icons in public/icons/ and public/favicon.svg from one
// inline SVG heart. Run once after changing the mark, and commit the output:
//   node --import tsx tools/make-icons.ts

import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const PUBLIC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public')
const ICON_DIR = path.join(PUBLIC_DIR, 'icons')

// Keep in step with public/manifest.webmanifest (theme_color).
const BRAND = '#c2185b'
const MARK = '#ffffff'

// A heart in a 100 x 100 box, centred on (50, 50).
const HEART =
  'M50 86C22 66 8 51 8 33C8 20 18 11 30 11C39 11 46 16 50 23C54 16 61 11 70 11C82 11 92 20 92 33C92 51 78 66 50 86Z'

// `scale` shrinks the heart about the centre; `shape` is the background.
function svg(options: { shape: 'rounded' | 'full' | 'none'; scale: number }): string {
  const background =
    options.shape === 'rounded'
      ? `<rect width="100" height="100" rx="22" fill="${BRAND}"/>`
      : options.shape === 'full'
        ? `<rect width="100" height="100" fill="${BRAND}"/>`
        : ''
  const offset = Number((50 * (1 - options.scale)).toFixed(2))
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><title>Amora</title>${background}<path transform="translate(${offset} ${offset}) scale(${options.scale})" fill="${MARK}" d="${HEART}"/></svg>`
}

// Ordinary icons: rounded tile, heart filling most of it.
const ANY = svg({ shape: 'rounded', scale: 0.72 })
// Maskable: full-bleed background, heart inside the central 80 % safe zone
// (the platform crops to a circle or squircle).
const MASKABLE = svg({ shape: 'full', scale: 0.56 })
// iOS rounds the corners itself and shows transparency as black.
const APPLE = svg({ shape: 'full', scale: 0.68 })
// Notification badge: Android draws only the alpha channel, so a white
// heart on transparency.
const BADGE = svg({ shape: 'none', scale: 0.9 })
// The favicon is a rounded tile like the app icon.
const FAVICON = svg({ shape: 'rounded', scale: 0.72 })

const PNGS: Array<{ file: string; source: string; size: number }> = [
  { file: 'icon-192.png', source: ANY, size: 192 },
  { file: 'icon-512.png', source: ANY, size: 512 },
  { file: 'icon-maskable-512.png', source: MASKABLE, size: 512 },
  { file: 'apple-touch-icon-180.png', source: APPLE, size: 180 },
  { file: 'badge-96.png', source: BADGE, size: 96 },
]

await mkdir(ICON_DIR, { recursive: true })
for (const { file, source, size } of PNGS) {
  const png = await sharp(Buffer.from(source), { density: (72 * size) / 100 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toBuffer()
  await writeFile(path.join(ICON_DIR, file), png)
  console.log(`public/icons/${file}: ${size}x${size}, ${png.length} bytes`)
}
await writeFile(path.join(PUBLIC_DIR, 'favicon.svg'), `${FAVICON}\n`)
console.log('public/favicon.svg')
