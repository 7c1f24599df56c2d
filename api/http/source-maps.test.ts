// Source maps (the app's whole source, readable) are built for debugging but
// served only when SOURCE_MAPS=public asks for them: by default every *.map
// path answers 404, its precompressed copies too, and the build does not
// point the scripts at them.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig, loadServeConfig } from '../config.ts'
import { createServer } from '../server.ts'
import { freshDatabase, type TestDatabase } from '../test/databases.ts'

const SCRIPT = 'export const x = 1\n'
const MAP = JSON.stringify({ version: 3, sources: ['../app/secret.ts'], mappings: '' })

it('keeps source maps private unless SOURCE_MAPS=public', () => {
  expect(loadServeConfig({}).publicSourceMaps).toBe(false)
  expect(loadServeConfig({ SOURCE_MAPS: 'off' }).publicSourceMaps).toBe(false)
  expect(loadServeConfig({ SOURCE_MAPS: 'public' }).publicSourceMaps).toBe(true)
  expect(loadConfig({ SOURCE_MAPS: 'public' }).serve.publicSourceMaps).toBe(true)
  expect(() => loadServeConfig({ SOURCE_MAPS: 'yes' })).toThrow()
})

it('builds the maps without pointing the scripts at them (vite build.sourcemap "hidden")', async () => {
  const { default: config } = await import('../../vite.config.ts')
  const resolved = typeof config === 'function' ? null : config
  expect(resolved?.build?.sourcemap).toBe('hidden')
  // The service worker and the light entry are built with the app's setting.
  const root = fileURLToPath(new URL('../..', import.meta.url))
  for (const plugin of ['sw-vite-plugin.ts', 'light-vite-plugin.ts']) {
    const source = readFileSync(join(root, 'tools', plugin), 'utf8')
    expect(source, plugin).toContain('sourcemap: config.build.sourcemap')
  }
})

// The files are the server's: the database is not what is tested (PGlite only).
describe('source maps of the build', () => {
  let database: TestDatabase
  let dist: string
  const servers = new Map<boolean, ReturnType<typeof createServer>>()
  const get = (publicSourceMaps: boolean, path: string, encoding = 'identity') =>
    servers.get(publicSourceMaps)!.request(`http://localhost${path}`, {
      headers: { 'accept-encoding': encoding, host: 'localhost' },
    })

  beforeAll(async () => {
    database = await freshDatabase('pglite')
    dist = mkdtempSync(join(tmpdir(), 'amora-dist-'))
    mkdirSync(join(dist, 'assets'))
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>')
    writeFileSync(join(dist, 'assets', 'index-AbCd1234.js'), SCRIPT)
    writeFileSync(join(dist, 'assets', 'index-AbCd1234.js.map'), MAP)
    writeFileSync(join(dist, 'assets', 'index-AbCd1234.js.map.br'), MAP)
    writeFileSync(join(dist, 'assets', 'index-AbCd1234.js.map.gz'), MAP)
    writeFileSync(join(dist, 'sw.js.map'), MAP)
    for (const publicSourceMaps of [false, true]) {
      servers.set(
        publicSourceMaps,
        createServer({ db: database.db, distDir: dist, mediaDir: dist, publicSourceMaps }),
      )
    }
  })
  afterAll(async () => {
    await database?.close()
    if (dist) rmSync(dist, { recursive: true, force: true })
  })

  it('answers 404 for every map by default, however it is asked for', async () => {
    const paths = [
      '/assets/index-AbCd1234.js.map',
      '/assets/index-AbCd1234.js.map.br',
      '/assets/index-AbCd1234.js.map.gz',
      '/assets/index-AbCd1234.JS.MAP',
      '/sw.js.map',
    ]
    for (const path of paths) {
      for (const encoding of ['identity', 'br', 'gzip']) {
        const res = await get(false, path, encoding)
        expect(res.status, `${path} ${encoding}`).toBe(404)
        expect(await res.text(), `${path} ${encoding}`).not.toContain('secret.ts')
      }
    }
    const head = await servers
      .get(false)!
      .request('http://localhost/assets/index-AbCd1234.js.map', { method: 'HEAD' })
    expect(head.status).toBe(404)
  })

  it('still serves the scripts, without a SourceMap header pointing at a map', async () => {
    const res = await get(false, '/assets/index-AbCd1234.js')
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(SCRIPT)
    expect(res.headers.get('sourcemap')).toBeNull()
  })

  it('serves the maps with SOURCE_MAPS=public, and points the scripts at them', async () => {
    const map = await get(true, '/assets/index-AbCd1234.js.map')
    expect(map.status).toBe(200)
    expect(await map.text()).toBe(MAP)
    expect((await get(true, '/sw.js.map')).status).toBe(200)
    const script = await get(true, '/assets/index-AbCd1234.js')
    expect(script.headers.get('sourcemap')).toBe('index-AbCd1234.js.map')
  })
})
