// `npm test`: every check of the project, one phase after the other, stopping
// at the first that fails, and a table of how long each phase took at the end
// (also when one failed), so a slow phase shows up in every CI log.
import { spawn } from 'node:child_process'

/** The phases, in order: cheap static checks first, the browser last. */
export const PHASES: readonly { name: string; script: string }[] = [
  { name: 'format', script: 'check:format' },
  { name: 'lint', script: 'lint' },
  { name: 'typecheck', script: 'typecheck' },
  { name: 'unit and API', script: 'test:unit' },
  { name: 'build', script: 'build' },
  { name: 'page weight', script: 'size' },
  { name: 'browser (e2e)', script: 'test:e2e' },
]

const run = (script: string) =>
  new Promise<number>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: 'inherit' })
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })

const minutes = (ms: number) =>
  `${Math.floor(ms / 60_000)}:${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}`

async function main(): Promise<number> {
  const done: { name: string; ms: number; ok: boolean }[] = []
  let failed = false
  for (const phase of PHASES) {
    const t0 = Date.now()
    const code = await run(phase.script)
    done.push({ name: phase.name, ms: Date.now() - t0, ok: code === 0 })
    if (code !== 0) {
      failed = true
      break
    }
  }
  const total = done.reduce((sum, p) => sum + p.ms, 0)
  console.log('\nnpm test: phase times')
  for (const p of done)
    console.log(`  ${p.ok ? 'ok    ' : 'FAILED'}  ${minutes(p.ms).padStart(6)}  ${p.name}`)
  for (const p of PHASES.slice(done.length)) console.log(`  skipped         ${p.name}`)
  console.log(`  total   ${minutes(total).padStart(6)}`)
  return failed ? 1 : 0
}

process.exit(await main())
