// Run after `npm install <pkg>`: `node .ci/fix-lock.mjs`.
//
// The npm registry reachable from this project's machines does not carry the
// other platforms' native binaries (biome, rollup, inlang's sdk publish one
// package per os/cpu), so npm leaves them out of package-lock.json, and then
// `npm ci` refuses the lock as out of sync ("Missing: @biomejs/cli-darwin-arm64@
// from lock file"). This adds an entry for each such package with its pinned
// version and its os/cpu/libc, so the lock is in sync; `npm ci` skips every one
// of them on a platform it does not fit, as it does for any foreign binary.
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const lockPath = join(root, 'package-lock.json')
const scratch = mkdtempSync(join(tmpdir(), 'fix-lock-'))
copyFileSync(join(root, 'package.json'), join(scratch, 'package.json'))
copyFileSync(lockPath, join(scratch, 'package-lock.json'))
let out = ''
try {
  execFileSync('npm', ['ci', '--dry-run', '--ignore-scripts'], { cwd: scratch, stdio: 'pipe' })
} catch (e) {
  out = `${e.stdout ?? ''}${e.stderr ?? ''}`
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
const names = [...out.matchAll(/Missing: (.+?)@\S* from lock file/g)].map((m) => m[1])
const lock = JSON.parse(readFileSync(lockPath, 'utf8'))
const pkgs = lock.packages
const OS = [
  'android',
  'darwin',
  'linux',
  'win32',
  'freebsd',
  'openbsd',
  'openharmony',
  'aix',
  'sunos',
]
const CPU = ['arm64', 'x64', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'ia32']
for (const name of names) {
  const parent = Object.values(pkgs).find((v) => v.optionalDependencies?.[name])
  if (!parent)
    throw new Error(`fix-lock: ${name} is missing but no package pins it; run npm install`)
  const parts = name.split('/').pop().split('-')
  const os = parts.find((p) => OS.includes(p))
  const cpu = parts.find((p) => CPU.includes(p))
  if (!os || !cpu) throw new Error(`fix-lock: cannot tell the platform of ${name}`)
  const musl = parts.some((p) => p.startsWith('musl'))
  const glibc = os === 'linux' && parts.some((p) => p === 'gnu' || p === 'gnueabihf')
  pkgs[`node_modules/${name}`] = {
    version: parent.optionalDependencies[name].replace(/^[\^~=]/, ''),
    cpu: [cpu],
    ...(musl ? { libc: ['musl'] } : glibc ? { libc: ['glibc'] } : {}),
    optional: true,
    os: [os],
  }
}
lock.packages = Object.fromEntries(
  Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
)
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`fix-lock: ${names.length} platform package(s) recorded`)
