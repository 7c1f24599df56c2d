// The real entry (api/start.ts under node, as `npm start` runs it) with
// S3_BUCKET and the SDK's endpoint variables pointing at a real S3-protocol
// server (s3rver, api/test/s3.ts): the start says the pictures are in the
// bucket, the demo seed puts them there (and nothing in DATA_DIR), and the
// site serves a demo member's picture read from the bucket.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProfileImagesResponse } from '../api/contract/index.ts'
import { startS3, TEST_BUCKET, type TestS3 } from '../api/test/s3.ts'
import { DEMO, type Site, startSite } from './harness.ts'

describe('api/start.ts with S3_BUCKET', () => {
  let s3: TestS3
  let site: Site
  let sdk: S3Client

  beforeAll(async () => {
    s3 = await startS3()
    site = await startSite({ ...s3.env, DEMO_MEMBERS: '5' })
    sdk = new S3Client({
      endpoint: s3.env.AWS_ENDPOINT_URL_S3!,
      forcePathStyle: true,
      region: s3.env.AWS_REGION!,
      credentials: {
        accessKeyId: s3.env.AWS_ACCESS_KEY_ID!,
        secretAccessKey: s3.env.AWS_SECRET_ACCESS_KEY!,
      },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    })
  })
  afterAll(async () => {
    sdk?.destroy()
    await site?.stop()
    await s3?.stop()
  })

  it("says so at start, seeds the demo's pictures into the bucket and serves them from it", async () => {
    expect(site.output()).toContain(
      `start: pictures in S3 bucket ${TEST_BUCKET} at ${s3.env.AWS_ENDPOINT_URL_S3} (path-style)`,
    )
    const listed = await sdk.send(new ListObjectsV2Command({ Bucket: TEST_BUCKET }))
    const keys = new Set((listed.Contents ?? []).map((o) => o.Key))
    // The demo and five members, each with a picture and its thumbnail.
    expect(keys.size).toBeGreaterThanOrEqual(12)
    // Nothing on this machine's disk.
    expect(existsSync(join(site.dataDir, 'media'))).toBe(false)

    const login = await fetch(`${site.url}/api/login.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: site.url },
      body: JSON.stringify(DEMO),
    })
    expect(login.status).toBe(200)
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!
    const own = await fetch(`${site.url}/api/profileimage.php`, { headers: { cookie } })
    const { main_image } = ProfileImagesResponse.parse(await own.json())
    const thumb = main_image!.thumb_filename
    expect(keys.has(thumb)).toBe(true)

    const res = await fetch(`${site.url}/media/${thumb}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const object = await sdk.send(new GetObjectCommand({ Bucket: TEST_BUCKET, Key: thumb }))
    const stored = Buffer.from(await object.Body!.transformToByteArray())
    expect(Buffer.from(await res.arrayBuffer()).equals(stored)).toBe(true)
  })
})
