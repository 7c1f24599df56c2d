// The site domain's entry (the server's page rendering and form login): what
// the server may use of it (layers.test.ts forbids imports of its other files
// from outside the folder; api/start.ts alone loads start-page.ts by itself,
// to read little before the port opens).
export { formLogin } from './form-login.ts'
export {
  BUILT_ASSET_PATH,
  bootScriptOf,
  hasSessionCookie,
  loadPageRenderer,
  pageSeed,
  type RenderPage,
  reusedFor,
  SHOWCASE_REUSE_MS,
  shellStyles,
  shellWithPage,
  ssrDirOf,
} from './prerender.ts'
export { loadRouteTable } from './route-table.ts'
