// Kept apart from LikesPage.tsx: the route's beforeLoad (in the first-load
// bundle) needs only this, not the page and the local store behind it.
export type LikesType = 'received' | 'given' | 'visitors'
export const isLikesType = (v: string): v is LikesType =>
  v === 'received' || v === 'given' || v === 'visitors'
