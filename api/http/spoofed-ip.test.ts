// Rate limits key on the client's address; without TRUST_PROXY a client's
// own X-Forwarded-For is not believed, so changing it per request does not
// buy fresh attempts.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { accountsFromEnv } from '../mail/site.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'
import { addMember } from '../test/seed.ts'
import { LIMITS } from './ratelimit.ts'

describeEngines('spoofed client addresses on %s', (engine) => {
  let t: TestDatabase
  let app: Api

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db, accounts: { ...accountsFromEnv({}), trustProxy: false } })
  })
  afterAll(() => t.close())

  it('does not let a spoofed X-Forwarded-For bypass the login limit', async () => {
    const member = await addMember(t.db, {})
    const attempt = (n: number) =>
      send(app, '/api/login.php', {
        method: 'POST',
        body: { email: member.email, password: 'wrong guess' },
        headers: { 'x-forwarded-for': `203.0.113.${n}` },
      })
    for (let n = 1; n <= LIMITS.login.limit; n++) expect((await attempt(n)).status).toBe(401)
    expect((await attempt(99)).status).toBe(429)
  })
})
