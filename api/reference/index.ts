// The reference domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export { isKnownCountry, isRegionOf, regionData, regionName, regionsOf } from './regions.ts'
export { referenceRoutes } from './routes.ts'
