// `npm run migrate`: applies the database migrations (db/migrations) to the
// database `npm start` would open (DATABASE_URL, else PGlite in DATA_DIR) and
// exits. A deploy runs it once before rolling out new processes; `npm start`
// migrates on open as well, so it is never required. It takes the same
// start-up lock as the start (db/client.ts withStartLock): it may run while
// processes are starting (docs/several-machines.md).
import { readFileSync } from 'node:fs'
import { openDatabase } from '../db/client.ts'
import { loadConfig } from './config.ts'

const journal = JSON.parse(
  readFileSync(new URL('../db/migrations/meta/_journal.json', import.meta.url), 'utf8'),
) as { entries: { tag: string }[] }

const { database: options } = loadConfig()
const t0 = Date.now()
const database = await openDatabase(options)
await database.close()
console.log(
  `migrate: ${database.kind} database up to date (${journal.entries.length} migrations, newest ${journal.entries.at(-1)?.tag ?? 'none'}, ${Date.now() - t0} ms)`,
)
