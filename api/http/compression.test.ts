// Compression (fast on a slow network): built files are sent precompressed
// (brotli or gzip by Accept-Encoding, with Vary), API JSON is compressed
// above 1 KB, small answers and the live event stream never are.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { precompressDir } from '../../tools/precompress-vite-plugin.ts'
import { COMPRESS_MIN_BYTES, createServer } from '../server.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { addMember, TEST_PASSWORD, testPasswordHash } from '../test/seed.ts'

const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(800))}\n`

describeEngines('compression (%s)', (engine) => {
  let database: TestDatabase
  let server: ReturnType<typeof createServer>
  let dist: string
  const get = (path: string, encoding: string, cookie?: string) =>
    server.request(`http://localhost${path}`, {
      headers: { 'accept-encoding': encoding, host: 'localhost', ...(cookie ? { cookie } : {}) },
    })

  beforeAll(async () => {
    database = await freshDatabase(engine)
    dist = mkdtempSync(join(tmpdir(), 'dist-'))
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Amora</title>')
    writeFileSync(join(dist, 'app.js'), SCRIPT)
    writeFileSync(join(dist, 'tiny.js'), 'export {}\n')
    await precompressDir(dist)
    server = createServer({ db: database.db, distDir: dist, mediaDir: dist })
  })
  afterAll(async () => {
    rmSync(dist, { recursive: true, force: true })
    await database.close()
  })

  it('pins the on-the-fly threshold: 1 KB', () => {
    expect(COMPRESS_MIN_BYTES).toBe(1024)
  })

  it('sends a built script as brotli when accepted, else gzip, else as it is, always with Vary', async () => {
    const br = await get('/app.js', 'gzip, deflate, br')
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i)
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(SCRIPT)

    const gz = await get('/app.js', 'gzip')
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(SCRIPT)

    const plain = await get('/app.js', 'identity')
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(await plain.text()).toBe(SCRIPT)
  })

  it('leaves files under 1 KB without a compressed copy', async () => {
    const res = await get('/tiny.js', 'br, gzip')
    expect(res.headers.get('content-encoding')).toBeNull()
  })

  it('compresses API JSON above 1 KB and not below it', async () => {
    const big = await get('/api/settings.php', 'gzip')
    expect(big.headers.get('content-encoding')).toBe('gzip')
    expect(big.headers.get('vary')).toMatch(/accept-encoding/i)
    const settings = JSON.parse(gunzipSync(Buffer.from(await big.arrayBuffer())).toString())
    expect(settings).toHaveProperty('region_data')

    const small = await get('/api/companyinfo.php', 'gzip')
    expect(small.headers.get('content-encoding')).toBeNull()
    expect(await small.json()).toHaveProperty('kvk')
  })

  it('sends API JSON as brotli when accepted, with its length', async () => {
    const plain = await get('/api/settings.php', 'identity')
    const text = await plain.text()
    expect(plain.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
    const br = await get('/api/settings.php', 'gzip, deflate, br')
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i)
    const bytes = Buffer.from(await br.arrayBuffer())
    expect(br.headers.get('content-length')).toBe(String(bytes.byteLength))
    expect(brotliDecompressSync(bytes).toString()).toBe(text)
  })

  it('never compresses the live event stream', async () => {
    const member = await addMember(database.db, { passwordHash: await testPasswordHash() })
    const login = await server.request('http://localhost/api/login.php', {
      method: 'POST',
      headers: {
        host: 'localhost',
        origin: 'http://localhost',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email: member.email, password: TEST_PASSWORD }),
    })
    expect(login.status).toBe(200)
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!
    const res = await get('/api/events.php', 'gzip, br', cookie)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    expect(res.headers.get('content-encoding')).toBeNull()
    await res.body?.cancel()
  })
})
