// The documentation's own rules: the README stays a short description of the
// project, decisions live in docs/ and benchmark figures in bench/RESULTS.md,
// every relative link resolves, and code comments point at docs/ pages, never
// into a README section (docs link to code, not the other way round).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const SELF = path.relative(ROOT, fileURLToPath(import.meta.url))
const README_MAX_LINES = 400

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8')

/** Lines as `wc -l` counts them. */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0)

const markdownFiles = () => [
  'README.md',
  'bench/RESULTS.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]

/** The targets of `[text](target)` links, outside fenced code blocks. */
function markdownLinks(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '')
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '')
}

/** Relative links to a path (not a web address, not an anchor of the same page). */
const isRelativePath = (target: string) =>
  !/^[a-z][a-z+.-]*:/i.test(target) && !target.startsWith('#')

/**
 * A pointer into a README section: `README "Push"`, `README “…”`, `README,`,
 * `README → …`, `README section`, `README Performance`, `(see README)` or
 * `(README)`, also with the section on the next comment line. Saying what
 * the README holds (`the README publishes the demo login`) is no pointer.
 */
const README_POINTER = /\bREADME(?:\s|\/\/|\*|--)*(?:["“”]|section|,|→|Performance|\))/

const SKIP_DIRS = new Set(['node_modules', 'dist', 'dist-ssr', '.git', '.data', '.tmp-root'])

function codeFiles(dir = ''): string[] {
  const out: string[] = []
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.data-'))
        out.push(...codeFiles(rel))
    } else if (/\.tsx?$/.test(entry.name)) out.push(rel)
  }
  return out
}

describe('documentation', () => {
  it(`keeps README.md within ${README_MAX_LINES} lines`, () => {
    expect(lineCount(read('README.md'))).toBeLessThanOrEqual(README_MAX_LINES)
  })

  it('resolves every relative link of README.md, docs/*.md and bench/RESULTS.md', () => {
    const broken: string[] = []
    for (const file of markdownFiles()) {
      for (const target of markdownLinks(read(file)).filter(isRelativePath)) {
        const targetPath = target.split('#')[0] ?? ''
        if (!existsSync(path.join(ROOT, path.dirname(file), decodeURI(targetPath))))
          broken.push(`${file}: ${target}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('finds no code file pointing into a README section', () => {
    const pointers: string[] = []
    for (const file of codeFiles()) {
      if (file === SELF) continue
      const lines = read(file).split('\n')
      lines.forEach((line, i) => {
        const withNext = `${line}\n${lines[i + 1] ?? ''}`
        if (line.includes('README') && README_POINTER.test(withNext))
          pointers.push(`${file}:${i + 1}: ${line.trim()}`)
      })
    }
    expect(pointers).toEqual([])
  })

  it('tells a pointer into a README section from a statement about the README', () => {
    for (const pointer of [
      '// (README "Push"): the member',
      '// see README "Main-thread JavaScript".',
      '/** open to guests (see README). */',
      '// by side from here (README Performance, "Repeat',
      '// request is what limits it (README "API against raw pg").',
      '// Documented normalisation (README): opaque labels',
      '// (README\n// "Performance")',
      '// README → "HTML that paints"',
    ])
      expect(README_POINTER.test(pointer), pointer).toBe(true)
    for (const statement of [
      '/** The account the README publishes: demo@example.com / demopassword. */',
      "PAYMENTS=test, or on a demo start (DEMO_SEED on, the README's quick start)",
      '/** A markdown table: readable in a terminal and pasteable into bench/RESULTS.md. */',
    ])
      expect(README_POINTER.test(statement), statement).toBe(false)
  })
})
