// The moderation domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export { fileAppeal, sanctionByToken } from './appeals.ts'
export { decide } from './decide.ts'
export { dsaFigures } from './dsa-figures.ts'
export {
  HELD_TEXT_FIELDS,
  type HeldTextField,
  type HeldTexts,
  reviewProfileTexts,
  textsInReviewSql,
} from './profile-texts.ts'
export { queue } from './queue.ts'
export { queueItem } from './queue-item.ts'
export { appealRoutes } from './routes.ts'
export { bannedMemberSql, loginBarOf } from './sanctions.ts'
export {
  queueTransparency,
  TRANSPARENCY_SUBMIT,
  transparencyFromEnv,
  transparencyJobs,
  transparencySubmissionsList,
} from './transparency.ts'
