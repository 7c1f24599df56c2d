import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../client.ts'
import { likes, members } from '../schema/index.ts'
import { SECOND_DEMO_EMAIL } from './second-demo.ts'
import { seedDemo } from './seed.ts'

/** The seed's pictures as files of `dir` (the API's disk store, without importing api/). */
const dirSink = (dir: string) => ({
  put: (name: string, bytes: Uint8Array) => writeFile(join(dir, name), bytes),
})

const hashPassword = async (pw: string) => `test-hash:${pw}`

describe('seedDemo with secondDemo', () => {
  let database: Database
  let mediaDir: string

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite' })
    mediaDir = await mkdtemp(join(tmpdir(), 'seed-second-'))
    await seedDemo(database.db, {
      pictures: dirSink(mediaDir),
      members: 20,
      hashPassword,
      secondDemo: true,
    })
  })

  afterAll(async () => {
    await database?.close()
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
  })

  it('adds a paid Belgian login with the demo password, a picture and no likes', async () => {
    const [second] = await database.db
      .select()
      .from(members)
      .where(eq(members.email, SECOND_DEMO_EMAIL))
    expect(second).toMatchObject({
      passwordHash: 'test-hash:demopassword',
      gender: 'female',
      country: 'BE',
      paidUser: true,
    })
    expect(second?.mainImageId).not.toBeNull()
    const [row] = await database.db
      .select({ n: count() })
      .from(likes)
      .where(eq(likes.likedId, second!.id))
    expect(row?.n).toBe(0)
    expect((await database.db.select({ n: count() }).from(members))[0]?.n).toBe(22)
  })
})
