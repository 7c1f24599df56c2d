// The endpoint table owns every path of the API (docs/architecture.md, "How
// it is built"): no source of the client (app/, sync/, sw/; tests left out)
// writes one. A call goes by the name of its entry (`request('likes')` in the
// worker, `call('operatorMe')` in the console), and what is not a parsed call
// takes the entry's path (`endpoints.events.path`, `endpointUrl(name)`). The
// check reads string literals, template-literal parts and regular
// expressions from the syntax tree (oxc, through Vite), so a comment that
// names an endpoint never counts, and a path built as `/api/${x}` does.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseSync } from 'vite'
import { describe, expect, it } from 'vitest'
import { endpoints } from '../api/contract/endpoints.ts'
import { NAVIGATION_DENYLIST } from '../sw/config.ts'

interface SourceFile {
  /** Repository-relative, with forward slashes. */
  path: string
  source: string
}

/** One API path written in a client source: where, and the literal's text. */
interface Finding {
  file: string
  line: number
  text: string
}

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLIENT_DIRS = ['app', 'sync', 'sw']

/** A path of the API: `/api`, `/api/...`, also as a regular expression's source (`^\/api\/`). */
const API_PATH = /^\^?(\/|\\\/)api($|\/|\\\/|\?)/

const isTest = (path: string) => /\.test\.tsx?$/.test(path) || path.startsWith('sync/test/')

/**
 * The exceptions, each with its reason. An exception names the file and the
 * literal's exact text; one that no longer matches anything fails the check
 * too, so the list cannot outlive its reason.
 */
const ALLOWED: { file: string; text: string; why: string }[] = [
  {
    file: 'sw/config.ts',
    text: '^\\/api\\/',
    why:
      'The service worker lets every navigation under the API through to the network ' +
      '(NAVIGATION_DENYLIST). That is the API as a whole, the prefix of every /api entry ' +
      'of the table (checked below), not an endpoint; and sw/ may not load the contract.',
  },
]

type Node = { type?: string; start?: number; [key: string]: unknown }

/** Every API path written in `file`: string literals, template parts and regular expressions. */
function apiPathsIn(file: SourceFile): Finding[] {
  const { program, errors } = parseSync(file.path, file.source)
  if (errors.length > 0) throw new Error(`${file.path}: ${errors[0]?.message}`)
  const lineOf = (offset: number) => file.source.slice(0, offset).split('\n').length
  const found: Finding[] = []
  const check = (text: string, node: Node) => {
    if (API_PATH.test(text)) found.push({ file: file.path, line: lineOf(node.start ?? 0), text })
  }
  const visit = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child)
      return
    }
    if (typeof node !== 'object' || node === null) return
    const n = node as Node
    if (n.type === 'Literal') {
      const regex = n.regex as { pattern: string } | undefined
      if (regex) check(regex.pattern, n)
      else if (typeof n.value === 'string') check(n.value, n)
    } else if (n.type === 'TemplateElement') {
      check((n.value as { cooked?: string; raw: string }).cooked ?? '', n)
    }
    for (const [key, value] of Object.entries(n)) {
      if (key !== 'type' && typeof value === 'object') visit(value)
    }
  }
  visit(program)
  return found
}

/** Findings not covered by an exception, and exceptions that cover nothing. */
function check(files: SourceFile[], allowed = ALLOWED) {
  const findings = files.flatMap(apiPathsIn)
  const isAllowed = (f: Finding) => allowed.some((a) => a.file === f.file && a.text === f.text)
  return {
    paths: findings.filter((f) => !isAllowed(f)).map((f) => `${f.file}:${f.line}  ${f.text}`),
    stale: allowed
      .filter((a) => !findings.some((f) => f.file === a.file && f.text === a.text))
      .map((a) => `${a.file}  ${a.text}`),
  }
}

/** The client's own .ts/.tsx sources, tests and generated files left out. */
function clientFiles(dir: string): SourceFile[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry): SourceFile[] => {
    const full = join(ROOT, dir, entry.name)
    const path = relative(ROOT, full).split('\\').join('/')
    if (entry.isDirectory()) return clientFiles(path)
    if (!/\.tsx?$/.test(entry.name) || /\.gen\.tsx?$/.test(entry.name) || isTest(path)) return []
    return [{ path, source: readFileSync(full, 'utf8') }]
  })
}

describe('API paths come from the endpoint table', () => {
  it('no source of app/, sync/ or sw/ writes one', () => {
    const files = CLIENT_DIRS.flatMap(clientFiles)
    // Guards against a scan that silently finds nothing.
    for (const dir of CLIENT_DIRS) {
      expect(files.filter((f) => f.path.startsWith(`${dir}/`)).length, dir).toBeGreaterThan(3)
    }
    const { paths, stale } = check(files)
    expect(
      paths,
      `API paths outside the endpoint table (call the endpoint by name, or take endpoints.<name>.path):\n${paths.join('\n')}`,
    ).toEqual([])
    expect(stale, `exceptions that match nothing any more:\n${stale.join('\n')}`).toEqual([])
  })

  it("sw/config.ts's exception lets every API entry of the table through, and nothing else of the app", () => {
    const api = Object.values(endpoints)
      .map((e) => e.path)
      .filter((path) => path.startsWith('/api'))
    expect(api.length).toBeGreaterThan(50)
    const denied = (path: string) => NAVIGATION_DENYLIST.some((re) => re.test(path))
    expect(api.filter((path) => !denied(path))).toEqual([])
    expect(['/members', '/apiary', '/'].filter(denied)).toEqual([])
  })

  it('finds each way of writing a path, and nothing else (self-check)', () => {
    const files: SourceFile[] = [
      {
        path: 'app/routes/x.tsx',
        source: `
          // GET /api/comment.php is only a comment
          const a = fetch('/api/single.php')
          const b = "/api/double.php?x=1"
          const c = \`/api/template/\${id}.php\`
          const d = \`\${origin}/api/later.php\`
          const e = <a href="/api/attribute.php">x</a>
          const f = /^\\/api\\/regex/
          const g = '/api'
          const h = 'not /api/ at the start'
          const i = '/apiary'
          const j = '/media/api/x.jpg'
          type P = '/api/type.php'
        `,
      },
      { path: 'sw/config.ts', source: 'export const DENY = [/^\\/api\\//]' },
    ]
    const { paths, stale } = check(files, [
      { file: 'sw/config.ts', text: '^\\/api\\/', why: 'the prefix' },
      { file: 'sw/gone.ts', text: '/api/x.php', why: 'stale' },
    ])
    expect(paths).toEqual([
      'app/routes/x.tsx:3  /api/single.php',
      'app/routes/x.tsx:4  /api/double.php?x=1',
      'app/routes/x.tsx:5  /api/template/',
      'app/routes/x.tsx:6  /api/later.php',
      'app/routes/x.tsx:7  /api/attribute.php',
      'app/routes/x.tsx:8  ^\\/api\\/regex',
      'app/routes/x.tsx:9  /api',
      'app/routes/x.tsx:13  /api/type.php',
    ])
    expect(stale).toEqual(['sw/gone.ts  /api/x.php'])
  })
})
