// The cams domain's entry: what other domains and the app's wiring may use of
// it (layers.test.ts forbids imports of its other files from outside the folder).
export { type CamsDeps, camsFromEnv, camsRoutes } from './routes.ts'
