// The chats domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).

export { chatRoutes } from './chat-routes.ts'
export { unreadChatsCountSql } from './chats.ts'
export { conversationsExport } from './export.ts'
export { giftSendRoutes } from './gifts.ts'
export { dropMemberAttachments } from './member-attachments.ts'
export { messageMailJobHandlers } from './message-mail.ts'
export { type EventsTiming, messageRoutes } from './message-routes.ts'
export { messageInContext } from './moderation-sql.ts'
export { photoRoutes } from './photos.ts'
export { chatsRoutes } from './routes.ts'
export { heldOpening, heldOpenings, refuseOpening, releaseOpening } from './scam-cases.ts'
export { voiceRoutes } from './voice.ts'
