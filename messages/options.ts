import { fileURLToPath } from 'node:url'

// Paraglide compiler options, shared by the Vite build and `npm run i18n`
// (which compiles before the typecheck so the generated types exist).
// Absolute paths: Vite runs with root app/, the i18n script from the repo root.
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))

export const paraglideOptions = {
  project: here('../project.inlang'),
  outdir: here('./paraglide'),
  // Spec §4: stored locale cookie, then browser language, then fallback (en).
  strategy: ['cookie', 'preferredLanguage', 'baseLocale'],
  // Spec §9: locale cookie 365 days.
  cookieMaxAge: 365 * 24 * 60 * 60,
  emitTsDeclarations: true,
  emitGitIgnore: false,
} as const
