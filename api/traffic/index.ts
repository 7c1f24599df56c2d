// The traffic domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export { loadRouteRules, ROUTE_RULES_KEY } from './route-rules.ts'
export { trafficRedirects } from './redirects.ts'
export { trafficRoutes } from './routes.ts'
export { landerVisitsSql } from './report-sql.ts'
