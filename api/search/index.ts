// The search domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).

export { searchRoutes } from './routes.ts'
export { guestViewer, landerRows, SIMILAR_AGE_WIDENING } from './search.ts'
export { SHOWCASE_SIZE, showcase } from './showcase.ts'
