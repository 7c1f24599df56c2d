// The endpoint table (api/contract/endpoints.ts) is what the API serves: every
// entry is routed with its method and path, so the worker's call(name) never
// lands on "no such endpoint".
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { endpoints } from '../contract/endpoints.ts'
import { isOperatorPath } from '../contract/operator/index.ts'
import { freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'

describe('endpoint table', () => {
  let database: TestDatabase
  let app: Api
  beforeAll(async () => {
    database = await freshDatabase('pglite')
    app = createApi({ db: database.db })
  })
  afterAll(() => database.close())

  // The console's endpoints answer "no such endpoint" to anyone but staff;
  // api/operator/access.test.ts serves each of them to a staff session.
  const memberFacing = Object.entries(endpoints).filter(([, e]) => !isOperatorPath(e.path))
  it.each(memberFacing)('%s is served by the API', async (_, endpoint) => {
    const query = 'fixedQuery' in endpoint ? `?${new URLSearchParams(endpoint.fixedQuery)}` : ''
    const res = await send(app, `${endpoint.path}${query}`, {
      method: endpoint.method,
      ...(endpoint.method === 'GET' ? {} : { body: {} }),
    })
    const body = res.headers.get('content-type')?.includes('json') ? await res.json() : {}
    expect(body.message, `${endpoint.method} ${endpoint.path}`).not.toBe('no such endpoint')
  })

  it('an unknown path under /api is "no such endpoint" (the check above can fail)', async () => {
    const res = await send(app, '/api/nothing-here.php')
    expect(res.status).toBe(404)
    expect((await res.json()).message).toBe('no such endpoint')
  })
})
