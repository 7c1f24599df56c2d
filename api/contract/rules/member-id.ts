// Its own module: the app's member routes load it in the shell, which must
// not carry the slug rules beside it (bench/page-js.ts counts every byte).

/**
 * A member id in a page's path: a positive integer, else null (spec §8 "Page
 * Not Found"). The app's member routes and the server's 404 of a member page
 * both read ids with it.
 */
export const parseMemberId = (raw: string): number | null => {
  const id = Number(raw)
  return /^[1-9][0-9]{0,15}$/.test(raw) && Number.isSafeInteger(id) ? id : null
}
