// The operator's console endpoints, by part; spread into the endpoint table.
import { membersEndpoints } from './members.ts'
import { moderationEndpoints } from './moderation.ts'
import { sitesEndpoints } from './sites.ts'
import { staffEndpoints } from './staff.ts'

export * from './members.ts'
export * from './moderation.ts'
export * from './sites.ts'
export * from './staff.ts'

export const operatorEndpoints = {
  ...staffEndpoints,
  ...moderationEndpoints,
  ...membersEndpoints,
  ...sitesEndpoints,
}

/** Whether an endpoint belongs to the console (404 to anyone but staff). */
export const isOperatorPath = (path: string) => path.startsWith('/api/operator/')
