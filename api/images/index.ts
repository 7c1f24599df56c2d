// The images domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export { processImage, refreshMainImage, removeImageRow } from './images.ts'
export { filesOf, queueFileRemoval, removeFilesNow } from './media.ts'
export { pictureDataUrl } from './serve.ts'
export { type PictureStore, SELFIE_PREFIX, withStore } from './storage.ts'
export { badFile, pictureBodyLimit, uploadedFiles } from './upload.ts'
