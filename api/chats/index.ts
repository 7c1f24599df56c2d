// The chats domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export { heldOpening, heldOpenings, refuseOpening, releaseOpening } from './scam-cases.ts'
