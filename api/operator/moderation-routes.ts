import { Hono } from 'hono'
import type { StaffEnv } from './auth.ts'
import type { OperatorDeps } from './deps.ts'

/**
 * The console's moderation endpoints (api/contract/operator/moderation.ts). Mounted
 * behind the staff gate of api/operator/routes.ts: c.get('staff') is the
 * signed-in staff member; the staff gate has checked the endpoint's capability (endpoint table).
 */
export const moderationRoutes = (_deps: OperatorDeps) => new Hono<StaffEnv>()
