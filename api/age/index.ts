// The age-assurance domain's entry (DSA Art. 28): what other domains may use
// of it (layers.test.ts forbids imports of its other files from outside).
export {
  type AgeDeps,
  type AgeGatedAction,
  ageAssuranceRequired,
  ageExport,
  ageGateOn,
  assuredSql,
  isAssured,
  requireAgeAssurance,
} from './age.ts'
export { ageFromEnv } from './config.ts'
export { ageRoutes } from './routes.ts'
export { type Dispatch, testWalletRoutes } from './test-wallet.ts'
