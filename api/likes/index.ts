// The likes domain's entry: what other domains and the app's wiring may use of
// it (layers.test.ts forbids imports of its other files from outside the folder).
export { dropLikesOf, likesExport } from './account.ts'
export { newLikesCountSql } from './likes.ts'
export { likeFlags } from './relation.ts'
export { type LikesOptions, likesRoutes } from './routes.ts'
