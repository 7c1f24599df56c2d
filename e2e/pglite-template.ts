// A migrated, empty PGlite data directory made once per schema and copied
// into each browser test site's fresh DATA_DIR: every site still starts as
// `npm start` does (api/start.ts opens the database, finds every migration
// applied, seeds the demo), without each of the run's forty-odd sites
// creating a database cluster and running every migration again (about
// 15 s of a site's start on this 2-core machine under the suite's load).
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ROOT = new URL('..', import.meta.url).pathname
const MIGRATIONS = join(ROOT, 'db/migrations')

/** The schema's fingerprint: every migration file and the PGlite version that wrote the directory. */
function schemaKey(): string {
  const hash = createHash('sha256')
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))
      .sort()
  for (const file of files(MIGRATIONS))
    hash.update(file.slice(MIGRATIONS.length)).update(readFileSync(file))
  hash.update(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json')))
  return hash.digest('hex').slice(0, 16)
}

/** Where the template of the current schema lives (kept between runs; a new schema gets a new one). */
export const TEMPLATE_DIR = join(tmpdir(), `amora-e2e-pglite-${schemaKey()}`)

/** Makes the template with `npm run migrate` (api/migrate.ts) unless it exists. */
export function prepareTemplate(): void {
  if (existsSync(TEMPLATE_DIR)) return
  const work = mkdtempSync(join(tmpdir(), 'amora-e2e-template-'))
  try {
    const { DATABASE_URL: _ignored, ...env } = process.env
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'api/migrate.ts'], {
      cwd: ROOT,
      env: { ...env, DATA_DIR: work },
      encoding: 'utf8',
    })
    if (run.status !== 0) throw new Error(`migrate failed:\n${run.stdout}${run.stderr}`)
    // Whole or not at all: a run that stops half-way leaves no template behind.
    try {
      renameSync(join(work, 'pglite'), TEMPLATE_DIR)
    } catch (err) {
      if (!existsSync(TEMPLATE_DIR)) throw err // another run made it meanwhile: fine
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/** Puts a copy of the template where a site's PGlite database goes, when there is one. */
export function copyTemplate(dataDir: string): void {
  if (existsSync(TEMPLATE_DIR)) cpSync(TEMPLATE_DIR, join(dataDir, 'pglite'), { recursive: true })
}
