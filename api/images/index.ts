// The images domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export { dropMemberImages, photosExport } from './account.ts'
export { processImage, refreshMainImage, removeImageRow } from './images.ts'
export { filesOf, queueFileRemoval, removeFilesNow } from './media.ts'
export {
  approvedPhotoFiles,
  approvePhoto,
  type ImageRow,
  memberPhotos,
  photoById,
  photoCount,
  unreviewedPhotos,
} from './moderation-sql.ts'
export { pictureDataUrl } from './serve.ts'
export { approvedImagesSql, guestPictureSql, imageOf, imagesOf, ownImagesSql } from './sql.ts'
export { type PictureStore, SELFIE_PREFIX, withStore } from './storage.ts'
export { badFile, pictureBodyLimit, uploadedFiles } from './upload.ts'
export { mediaJobHandlers } from './media.ts'
export { imageRoutes } from './routes.ts'
export { servePictures } from './serve.ts'
export { diskStore } from './storage.ts'
export {
  answerChatPhoto,
  dropChatPhoto,
  isChatPhotoName,
  storeChatPhoto,
} from './chat-photos.ts'
