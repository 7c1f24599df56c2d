// A real S3-protocol server for tests: s3rver (npm) on a free loopback port,
// keeping its objects in a temporary directory, with one empty bucket. The
// app reaches it through the AWS SDK exactly as it reaches AWS or MinIO,
// configured by the variables `env` holds (docs/several-machines.md,
// "Pictures"): pass them to a child process (api/start.ts), or put them in
// process.env for a store made in the test's own process.
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

interface S3rverInstance {
  run(): Promise<AddressInfo>
  close(): Promise<void>
}
type S3rverClass = new (options: {
  address: string
  port: number
  silent: boolean
  directory: string
  configureBuckets: { name: string; configs: string[] }[]
}) => S3rverInstance

/** The bucket startS3 creates. */
export const TEST_BUCKET = 'amora-pictures'

export interface TestS3 {
  /**
   * S3_BUCKET, AWS_ENDPOINT_URL_S3, AWS_REGION, the credentials s3rver
   * accepts, and the checksum settings a stand-in older than the SDK's
   * default checksums needs (WHEN_REQUIRED).
   */
  env: Record<string, string>
  stop(): Promise<void>
}

export async function startS3(): Promise<TestS3> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass
  const directory = await mkdtemp(join(tmpdir(), 'amora-s3-'))
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET, configs: [] }],
  })
  const { port } = await server.run()
  return {
    env: {
      S3_BUCKET: TEST_BUCKET,
      AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
      AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    },
    async stop() {
      await server.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}

/**
 * Puts `env` into this process's environment (the AWS SDK reads credentials
 * and checksum settings from it) and returns what undoes it.
 */
export function useEnv(env: Record<string, string>): () => void {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]))
  Object.assign(process.env, env)
  return () => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  }
}
