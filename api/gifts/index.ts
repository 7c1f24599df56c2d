// The gifts domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export { allGifts, catalogueOf, giftOnSale, saveGift } from './gifts.ts'
export { giftRoutes } from './routes.ts'
