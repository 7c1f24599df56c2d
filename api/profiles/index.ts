// The profiles domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export { allowedValues } from './fields.ts'
export { profileFieldRoutes } from './fields-routes.ts'
export {
  ageOn,
  type ProfileSource,
  profileColumns,
  profilesFor,
  toOwnProfile,
  toProfile,
} from './profiles.ts'
export { profileRoutes } from './routes.ts'
