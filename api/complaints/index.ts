// The complaints domain's entry: what other domains and the app's wiring may
// use of it (layers.test.ts forbids imports of its other files from outside the folder).
export {
  answerComplaint,
  complaintById,
  complaintsDecided,
  complaintsReceived,
  openComplaints,
} from './moderation-sql.ts'
export { complaintRoutes } from './routes.ts'
