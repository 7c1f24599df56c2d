// The newcomer's first start: runs `npm start` in a directory (a fresh clone
// after `npm ci`, no dist/, no .data/) and polls its port every 250 ms.
// Prints when the port first answered (the progress page) and when the real
// site answered 200 on `/`.
//   node --import tsx bench/first-start.ts /tmp/fresh [port]
import { spawn } from 'node:child_process'

const dir = process.argv[2] ?? '.'
const port = Number(process.argv[3] ?? 3999)
const t0 = Date.now()
const child = spawn('npm', ['start'], {
  cwd: dir,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
  stdio: ['ignore', 'ignore', 'inherit'],
  detached: true,
})
let firstAnswer: number | undefined
let firstStatus = 0
for (;;) {
  await new Promise((r) => setTimeout(r, 250))
  const res = await fetch(`http://127.0.0.1:${port}/`).catch(() => null)
  if (!res) continue
  firstAnswer ??= Date.now() - t0
  if (!firstStatus) firstStatus = res.status
  if (res.status === 200) break
}
const ready = Date.now() - t0
console.log(`port first answered after ${(firstAnswer / 1000).toFixed(1)} s (HTTP ${firstStatus})`)
console.log(`site ready (200 on /) after ${(ready / 1000).toFixed(1)} s`)
if (child.pid) process.kill(-child.pid, 'SIGTERM')
