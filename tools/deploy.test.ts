// The container files say what the tests run (docs/several-machines.md,
// "Containers"): no Docker daemon runs here, so these checks keep the
// Dockerfile, compose.yaml and deploy/haproxy.cfg from drifting away from
// package.json's commands and from the load balancer e2e/deployment.e2e.ts
// runs.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts
const dockerfile = read('Dockerfile')
const compose = read('compose.yaml')
const haproxy = read('deploy/haproxy.cfg')

/** The Dockerfile's stages by name: the text from each `FROM … AS name` to the next. */
const stages = Object.fromEntries(
  dockerfile
    .split(/^FROM /m)
    .slice(1)
    .map((stage) => [/^\S+ AS (\S+)/.exec(stage)?.[1], stage]),
)
const runtime = stages.runtime ?? ''

describe('Dockerfile', () => {
  it('builds in one stage (npm ci, npm run build) and runs from another', () => {
    expect(stages.build).toMatch(/^RUN npm ci\b/m)
    expect(stages.build).toMatch(/^RUN npm run build\b/m)
    expect(runtime).toMatch(/^COPY --from=build /m)
    // The runtime is the last stage: what `docker build` makes.
    expect(dockerfile.lastIndexOf('FROM ')).toBe(dockerfile.search(/^FROM \S+ AS runtime$/m))
  })

  it('starts node directly with package.json\'s "start" command, as a non-root user', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(runtime)?.[1]
    expect(cmd, 'an exec-form CMD (no shell between the signal and node)').toBeDefined()
    expect((JSON.parse(cmd!) as string[]).join(' ')).toBe(scripts.start)
    expect(scripts.start).toMatch(/^node /)
    expect(runtime).toMatch(/^USER node$/m)
  })

  it('checks its health on /healthz', () => {
    expect(runtime).toMatch(/^HEALTHCHECK [^\n]*(\\\n[^\n]*)*\/healthz/m)
  })
})

describe('compose.yaml', () => {
  it('runs `npm run migrate` as the one-shot the apps wait for', () => {
    expect(scripts.migrate).toBeDefined()
    expect(compose).toMatch(/^ {4}command: \["npm", "run", "migrate"\]$/m)
    expect(compose).toMatch(/migrate:\n\s+condition: service_completed_successfully/)
  })

  it('runs app1, app2 and app3 behind HAProxy on deploy/haproxy.cfg, the file the test runs', () => {
    for (const app of ['app1', 'app2', 'app3'])
      expect(compose).toMatch(new RegExp(`^  ${app}: `, 'm'))
    expect(compose).toContain('- ./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro')
    expect(read('e2e/deployment.e2e.ts')).toContain('deploy/haproxy.cfg')
    // Its default addresses are compose's service names on the image's port.
    const port = /^ {4}PORT=(\d+)/m.exec(dockerfile)?.[1]
    for (const n of [1, 2, 3])
      expect(haproxy).toContain(`server app${n} "\${APP${n}_ADDR-app${n}:${port}}"`)
  })

  it('lets HAProxy check /readyz, retry elsewhere, and keep event streams open', () => {
    expect(haproxy).toMatch(/http-check send meth GET uri \/readyz/)
    expect(haproxy).toMatch(/^ {4}option redispatch\b/m)
    expect(haproxy).toMatch(/^ {4}retries [1-9]/m)
    // Above the site's 15 s keep-alive comment on a quiet stream.
    for (const side of ['client', 'server']) {
      const s = Number(new RegExp(`^ {4}timeout ${side} (\\d+)s$`, 'm').exec(haproxy)?.[1])
      expect(s).toBeGreaterThanOrEqual(30)
    }
  })
})
