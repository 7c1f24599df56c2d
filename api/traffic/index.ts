// The traffic domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).

export { trafficRedirects } from './redirects.ts'
export { landerVisitsSql } from './report-sql.ts'
export { loadRouteRules, ROUTE_RULES_KEY } from './route-rules.ts'
export { trafficRoutes } from './routes.ts'
