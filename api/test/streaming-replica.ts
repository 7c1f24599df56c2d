// A real PostgreSQL streaming replica of the local PostgreSQL 15 cluster
// (the DATABASE_URL server), for the suites of reads on a replica
// (db/replica.ts): pg_basebackup of the running primary into a temporary
// directory, started as a hot standby on a port of its own. It needs the
// Debian cluster 15/main on this machine and root (CI runs as root): the
// base backup and the server run as the user postgres.
import { execFile } from 'node:child_process'
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'

const run = promisify(execFile)
const BIN = '/usr/lib/postgresql/15/bin'
const HBA = '/etc/postgresql/15/main/pg_hba.conf'
const REPLICATION_RULE = 'host replication all 127.0.0.1/32 trust'

/** Why this machine cannot run a replica of DATABASE_URL, or null when it can. */
export function replicaUnavailable(): string | null {
  const url = process.env.DATABASE_URL
  if (!url) return 'set DATABASE_URL to run it'
  const { hostname, port } = new URL(url)
  if (!['127.0.0.1', 'localhost'].includes(hostname) || (port || '5432') !== '5432') {
    return 'DATABASE_URL is not the local cluster 15/main at 127.0.0.1:5432'
  }
  if (process.getuid?.() !== 0) return 'needs root (runs pg_basebackup and pg_ctl as postgres)'
  for (const file of [`${BIN}/pg_ctl`, `${BIN}/pg_basebackup`, HBA, '/usr/sbin/runuser']) {
    if (!existsSync(file)) return `${file} is missing`
  }
  return null
}

const asPostgres = (cmd: string, args: string[], timeout = 120_000) =>
  run('/usr/sbin/runuser', ['-u', 'postgres', '--', cmd, ...args], { timeout })

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('port')),
      )
    })
  })
}

/** One statement on a server, on a connection of its own. */
export async function queryOn<T extends pg.QueryResultRow>(
  url: string,
  statement: string,
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(statement)).rows
  } finally {
    await client.end()
  }
}

/** The primary lets postgres replicate from 127.0.0.1 (appended once, then reloaded). */
async function allowReplication(primaryUrl: string): Promise<void> {
  const hba = readFileSync(HBA, 'utf8')
  if (!hba.split('\n').some((line) => line.trim() === REPLICATION_RULE)) {
    appendFileSync(HBA, `\n${REPLICATION_RULE}\n`)
  }
  await queryOn(primaryUrl, 'SELECT pg_reload_conf()')
}

/** The settings a hot standby must have at least as high as its primary. */
const AT_LEAST_PRIMARY = [
  'max_connections',
  'max_worker_processes',
  'max_wal_senders',
  'max_prepared_transactions',
  'max_locks_per_transaction',
]

export interface StreamingReplica {
  /** The URL of `database` on the replica. */
  url(database: string): string
  /** Stops the server (a crash-like immediate stop); idempotent. */
  stop(): Promise<void>
  /** Stops it and removes its directory. */
  remove(): Promise<void>
}

/** Base-backs-up the primary of `primaryUrl` and starts it as a streaming hot standby. */
export async function startStreamingReplica(primaryUrl: string): Promise<StreamingReplica> {
  await allowReplication(primaryUrl)
  const root = mkdtempSync(join(tmpdir(), 'amora-replica-'))
  const { stdout } = await run('id', ['-u', 'postgres'])
  const { stdout: gid } = await run('id', ['-g', 'postgres'])
  chownSync(root, Number(stdout.trim()), Number(gid.trim()))
  const data = join(root, 'data')
  const port = await freePort()
  let running = false
  const stop = async () => {
    if (!running) return
    running = false
    await asPostgres(`${BIN}/pg_ctl`, ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(
      () => undefined,
    )
  }
  const remove = async () => {
    await stop()
    rmSync(root, { recursive: true, force: true })
  }
  try {
    await asPostgres(`${BIN}/pg_basebackup`, [
      ...['-h', '127.0.0.1', '-p', '5432', '-U', 'postgres', '-D', data, '-R', '-X', 'stream'],
    ])
    const settings = await queryOn<{ name: string; setting: string }>(
      primaryUrl,
      `SELECT name, setting FROM pg_settings WHERE name IN (${AT_LEAST_PRIMARY.map((n) => `'${n}'`).join(',')})`,
    )
    // Debian keeps the configuration in /etc, outside the data directory
    // the backup copied: the standby gets files of its own.
    writeFileSync(
      join(data, 'postgresql.conf'),
      [
        "listen_addresses = '127.0.0.1'",
        'hot_standby = on',
        ...settings.map((s) => `${s.name} = ${s.setting}`),
        '',
      ].join('\n'),
    )
    writeFileSync(
      join(data, 'pg_hba.conf'),
      'local all all trust\nhost all all 127.0.0.1/32 trust\n',
    )
    writeFileSync(join(data, 'pg_ident.conf'), '')
    await run('chown', [
      'postgres:postgres',
      ...['postgresql.conf', 'pg_hba.conf', 'pg_ident.conf'].map((f) => join(data, f)),
    ])
    running = true
    await asPostgres(`${BIN}/pg_ctl`, [
      ...['-D', data, '-o', `-p ${port} -k /tmp`, '-l', join(root, 'log'), '-w', 'start'],
    ])
  } catch (e) {
    await remove()
    throw e
  }
  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop,
    remove,
  }
}
