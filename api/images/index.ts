// The images domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export { dropMemberImages, photosExport } from './account.ts'
export {
  answerChatPhoto,
  dropChatPhoto,
  isChatPhotoName,
  storeChatPhoto,
} from './chat-photos.ts'
export { type FaceMatch, type PhotoFaceCheck, photoFaceJobHandlers } from './face.ts'
export { processImage, refreshMainImage, removeImageRow } from './images.ts'
export { filesOf, mediaJobHandlers, queueFileRemoval, removeFilesNow } from './media.ts'
export {
  approvedPhotoFiles,
  approvePhoto,
  type ImageRow,
  memberPhotos,
  photoById,
  photoCount,
  unreviewedPhotos,
} from './moderation-sql.ts'
export { imageRoutes } from './routes.ts'
export { type PrivateAccess, pictureDataUrl, servePictures } from './serve.ts'
export {
  approvedImagesSql,
  guestPictureSql,
  imageOf,
  imagesOf,
  ownImagesSql,
  profileImagesOf,
} from './sql.ts'
export { diskStore, type PictureStore, SELFIE_PREFIX, withStore } from './storage.ts'
export { badFile, pictureBodyLimit, uploadedFiles } from './upload.ts'
export {
  answerVoice,
  checkVoice,
  dropVoice,
  isVoiceName,
  storeVoice,
  type VoiceType,
  voiceDataUrl,
} from './voice.ts'
