// The first script of a prerendered page (api/site/prerender.ts): the page's
// HTML is already there, so let the browser paint it before the app's
// scripts are fetched, evaluated and hydrate it. Without this, a fast network
// hands the browser the scripts before its first frame, and their evaluation
// (about a hundred kilobytes of React and the router) holds the first paint
// back; on a slow one their bytes share the first round trips with the page's
// own. The server names the app's entry scripts in this script's `data-boot`.
const start = () => {
  const boot = document.querySelector<HTMLScriptElement>('script[data-boot]')
  for (const src of boot?.dataset.boot?.split(' ') ?? []) {
    if (src) void import(/* @vite-ignore */ src)
  }
}
// A hidden tab gets no frames: start at once there.
if (document.visibilityState === 'hidden') start()
// rAF runs before the next frame is painted; a task queued from it runs after.
else requestAnimationFrame(() => setTimeout(start, 0))
