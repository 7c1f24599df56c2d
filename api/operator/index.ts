// The operator console's entry: what other domains and the server may use of
// it (layers.test.ts forbids imports of its other files from outside the folder).
export { currentStaff } from './auth.ts'
export { operatorRoutes } from './routes.ts'
