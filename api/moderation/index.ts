// The moderation domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export {
  decide,
  dsaFigures,
  fileAppeal,
  loginBarOf,
  queue,
  queueItem,
  sanctionByToken,
} from './moderation.ts'
export {
  queueTransparency,
  TRANSPARENCY_SUBMIT,
  transparencyFromEnv,
  transparencyJobs,
  transparencySubmissionsList,
} from './transparency.ts'
