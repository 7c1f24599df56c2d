// Vite plugin: after the build (and after the service worker is written),
// writes a brotli (.br) and a gzip (.gz) copy next to every compressible file
// of the output, so the server sends them as they are (api/server.ts,
// serveStatic `precompressed`) instead of compressing on every request.
// Brotli at its best quality is slow, which is fine once per build.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Plugin, ResolvedConfig } from 'vite'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

/** Text formats worth compressing; pictures and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/
/** Below this a compressed copy saves less than its headers cost. */
export const MIN_BYTES = 1024

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) yield* files(full)
    else yield full
  }
}

/** Compresses every eligible file under `dir`; the number of files done. */
export async function precompressDir(dir: string): Promise<number> {
  let done = 0
  for await (const file of files(dir)) {
    if (!COMPRESSIBLE.test(file) || file.includes(`${path.sep}.vite${path.sep}`)) continue
    if ((await stat(file)).size < MIN_BYTES) continue
    const body = await readFile(file)
    const [br, gzipped] = await Promise.all([
      brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
      gz(body, { level: 9 }),
    ])
    await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)])
    done++
  }
  return done
}

export function precompressPlugin(): Plugin {
  let config: ResolvedConfig
  return {
    name: 'amora:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const out = path.resolve(config.root, config.build.outDir)
        const n = await precompressDir(out)
        config.logger.info(`[precompress] ${n} files written as .br and .gz`)
      },
    },
  }
}
