// Which requests the runtime caches take. Pure, so the tests can check them.

// Member photos: anything under /media/ on this origin, and images under a
// /media/ path on another origin (settings.cdn_prefix may put them on a CDN,
// where they arrive as opaque responses). Only images: a Range request for
// a video must not be answered from a cache-first store.
export function isMediaImage(url: URL, destination: string, origin: string): boolean {
  if (!url.pathname.startsWith('/media/')) return false
  if (destination === 'image') return true
  return url.origin === origin && IMAGE_EXTENSION.test(url.pathname)
}

// Locale messages, GET /_i18n/{locale}/messages.json (spec §7).
export function isLocaleMessages(url: URL, origin: string): boolean {
  return url.origin === origin && url.pathname.startsWith('/_i18n/')
}

// Photos fetched by code (the sync worker prefetching a grid) have no image
// destination; their file name tells.
const IMAGE_EXTENSION = /\.(?:avif|gif|jpe?g|png|svg|webp)$/i
