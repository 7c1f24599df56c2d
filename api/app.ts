import { Hono } from 'hono'
import type { Db } from '../db/client.ts'
import { sameOriginOnly } from './auth/origin.ts'
import { notFound, onError } from './errors.ts'
import { activityRoutes } from './routes/activity.ts'
import { authRoutes } from './routes/auth.ts'
import { chatsRoutes } from './routes/chats.ts'
import { searchRoutes } from './routes/search.ts'
import { settingsRoutes } from './routes/settings.ts'
import { userRoutes } from './routes/user.ts'

export interface AppDeps {
  db: Db
}

/**
 * The API as a pure value: tests call `createApi(deps).request(...)`, the
 * server mounts it next to the static PWA. It keeps no state in memory.
 */
export function createApi({ db }: AppDeps) {
  const api = new Hono()
    .use(sameOriginOnly)
    .use(async (c, next) => {
      await next()
      // Member data never sits in a shared or browser HTTP cache; offline
      // copies live in the member's IndexedDB and are wiped on logout.
      c.header('Cache-Control', 'no-store')
    })
    .route('/', authRoutes(db))
    .route('/', userRoutes(db))
    .route('/', searchRoutes(db))
    .route('/', chatsRoutes(db))
    .route('/', activityRoutes(db))
    .route('/', settingsRoutes(db))

  return new Hono()
    .onError(onError)
    .route('/api', api)
    .all('/api/*', () => {
      throw notFound()
    })
}
export type Api = ReturnType<typeof createApi>
