// The first script of a prerendered page (api/site/prerender.ts): the page's
// HTML is already there, so let the browser paint it before the app's
// scripts are evaluated and hydrate it. Without this, a fast network hands
// the browser the scripts before its first frame, and their evaluation
// (about a hundred kilobytes of React and the router) holds the first paint
// back. The server turns the app's entry scripts into `modulepreload` links
// marked `data-boot` (fetched at once, evaluated here) and loads this file.
const start = () => {
  for (const link of document.querySelectorAll<HTMLLinkElement>('link[data-boot]')) {
    void import(/* @vite-ignore */ link.href)
  }
}
// A hidden tab gets no frames: start at once there.
if (document.visibilityState === 'hidden') start()
// rAF runs before the next frame is painted; a task queued from it runs after.
else requestAnimationFrame(() => setTimeout(start, 0))
