/** URL of a stored picture (settings.cdn_prefix would go in front in production). */
export const mediaUrl = (filename: string) => `/media/${encodeURIComponent(filename)}`
