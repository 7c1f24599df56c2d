// The built files only the operator's console uses: its route chunks and
// every chunk or stylesheet nothing but those import. The service worker
// leaves them out of the precache, so a member's browser never downloads the
// console (and a staff device keeps no offline copy of it).

export interface ManifestChunk {
  file: string
  src?: string
  css?: string[]
  imports?: string[]
  dynamicImports?: string[]
}
export type Manifest = Record<string, ManifestChunk>

/** Sources that belong to the console (keys of Vite's manifest, relative to app/). */
export const isConsoleSource = (key: string) =>
  /^routes\/_default\/operator\//.test(key) ||
  /^features\/operator\//.test(key) ||
  key === 'data/console-client.ts'

export function consoleOnlyFiles(manifest: Manifest): string[] {
  const importers = new Map<string, Set<string>>()
  for (const [key, chunk] of Object.entries(manifest))
    for (const dep of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) {
      if (!importers.has(dep)) importers.set(dep, new Set())
      importers.get(dep)?.add(key)
    }
  const only = new Set(Object.keys(manifest).filter(isConsoleSource))
  // A chunk every importer of which is the console's is the console's too.
  for (let grew = true; grew; ) {
    grew = false
    for (const [key, by] of importers) {
      if (only.has(key) || by.size === 0) continue
      if ([...by].every((k) => only.has(k))) {
        only.add(key)
        grew = true
      }
    }
  }
  // A stylesheet is left out when only console chunks link it.
  const cssUsers = new Map<string, string[]>()
  for (const [key, chunk] of Object.entries(manifest))
    for (const css of chunk.css ?? []) cssUsers.set(css, [...(cssUsers.get(css) ?? []), key])
  const files = new Set([...only].map((k) => manifest[k]?.file).filter((f): f is string => !!f))
  for (const [css, users] of cssUsers) if (users.every((k) => only.has(k))) files.add(css)
  return [...files].sort()
}
