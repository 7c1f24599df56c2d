// Small rooms: no function, arrow function or method of the shipped code runs
// past MAX_LINES lines, so that each can be read in one sitting and named for
// the one thing it does. A long one is split into named helpers or
// sub-components; the few that stay long are listed in LONG_FUNCTIONS with the
// reason, and that list may only shrink (an entry that is no longer long, or
// no longer there, fails too). Functions are found on the syntax tree (the
// same parser layers.test.ts uses), so strings and comments never count as code.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseSync } from 'vite'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** A function longer than this many lines (first to last, both counted) is long. */
const MAX_LINES = 80

/** The folders of shipped code that are checked. */
const CHECKED_DIRS = ['api', 'app', 'sync', 'sw', 'db', 'tools']

/** Not checked: tests and their helpers, generated and third-party code. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'messages/paraglide', 'api/test'])
const SKIPPED_FILE = /(\.test\.tsx?|\.gen\.tsx?|\.d\.ts)$/

/**
 * The functions allowed to stay long, as `path › name` (the name as
 * functionsOf gives it), each with a one-line reason. The list only shrinks.
 */
const LONG_FUNCTIONS: Record<string, string> = {
  'api/accounts/routes.ts › accountRoutes':
    'a route table: one short handler per account route, in the order of spec §2',
  'api/accounts/user-routes.ts › userRoutes': 'a route table: one short handler per user route',
  'api/chats/messages.ts › sendMessage':
    'the money path: the opening, verified-only and replay branches share one key and one cost; to be split only with a full test run after',
  'api/payments/orders.ts › createOrder':
    'the money path: price, discount and the order row in one transaction',
}

interface Node {
  type: string
  start: number
  end: number
  [key: string]: unknown
}

interface FunctionSpan {
  /** `name`, `Outer › name`, or `Outer › get handler` for an anonymous callback. */
  name: string
  lines: number
}

const FUNCTION_TYPES = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
])

/** The name of a key or binding node (`foo`, `'foo'`, `[x]` → `[computed]`). */
const keyName = (key: unknown): string | undefined => {
  const k = key as Node | undefined
  if (!k) return undefined
  if (k.type === 'Identifier' || k.type === 'PrivateIdentifier') return String(k.name)
  if (k.type === 'Literal') return String(k.value)
  return undefined
}

/** The name of the callee of a call (`app.get(...)` → `get`, `memo(...)` → `memo`). */
const calleeName = (callee: unknown): string | undefined => {
  const c = callee as Node | undefined
  if (!c) return undefined
  if (c.type === 'Identifier') return String(c.name)
  if (c.type === 'MemberExpression') return keyName(c.property)
  if (c.type === 'CallExpression') return calleeName(c.callee)
  return undefined
}

/** Every function of a source with its name and length in lines. */
function functionsOf(path: string, source: string): FunctionSpan[] {
  const { program, errors } = parseSync(path, source)
  if (errors.length > 0) throw new Error(`${path}: ${errors[0]?.message}`)
  const lineStarts = [0]
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') lineStarts.push(i + 1)
  const lineOf = (offset: number) => {
    let lo = 0
    let hi = lineStarts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (lineStarts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return lo + 1
  }
  const found: FunctionSpan[] = []
  const seen = new Map<string, number>()
  // `hint` is the name the parent gives a function found directly below it.
  const visit = (node: unknown, outer: string[], hint: string | undefined) => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child, outer, hint)
      return
    }
    if (typeof node !== 'object' || node === null) return
    const n = node as Node
    if (FUNCTION_TYPES.has(n.type)) {
      const own = keyName(n.id) ?? hint ?? 'function'
      const base = [...outer, own].join(' › ')
      const count = (seen.get(base) ?? 0) + 1
      seen.set(base, count)
      const name = count === 1 ? base : `${base} #${count}`
      found.push({ name, lines: lineOf(n.end - 1) - lineOf(n.start) + 1 })
      const inner = [...outer, count === 1 ? own : `${own} #${count}`]
      visit(n.params, inner, undefined)
      visit(n.body, inner, undefined)
      return
    }
    for (const [key, child] of Object.entries(n)) {
      if (key === 'type' || key === 'start' || key === 'end') continue
      let childHint = hint
      if (n.type === 'VariableDeclarator' && key === 'init') childHint = keyName(n.id)
      else if ((n.type === 'Property' || n.type === 'MethodDefinition') && key === 'value') {
        childHint = keyName(n.key)
      } else if (n.type === 'PropertyDefinition' && key === 'value') childHint = keyName(n.key)
      else if (n.type === 'CallExpression' && key === 'arguments') {
        const callee = calleeName(n.callee)
        childHint = hint ?? (callee ? `${callee} callback` : undefined)
      } else if (n.type === 'ExportDefaultDeclaration') childHint = 'default'
      else if (n.type === 'AssignmentExpression' && key === 'right') {
        const left = n.left as Node
        childHint = left.type === 'MemberExpression' ? keyName(left.property) : keyName(left)
      } else if (
        ![
          'ExpressionStatement',
          'ReturnStatement',
          'TSAsExpression',
          'TSSatisfiesExpression',
          'ParenthesizedExpression',
          'ChainExpression',
          'AwaitExpression',
        ].includes(n.type)
      ) {
        childHint = undefined
      }
      visit(child, outer, childHint)
    }
  }
  visit(program, [], undefined)
  return found
}

/** The checked source files, repository-relative with forward slashes. */
function checkedFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry): string[] => {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) {
      return SKIPPED_DIRS.has(entry.name) || SKIPPED_DIRS.has(path) ? [] : checkedFiles(path)
    }
    if (!/\.tsx?$/.test(entry.name) || SKIPPED_FILE.test(entry.name)) return []
    return [path]
  })
}

/** Every long function of the checked code, as `path › name` → lines. */
function longFunctions(): Map<string, number> {
  const long = new Map<string, number>()
  for (const path of CHECKED_DIRS.flatMap((d) => checkedFiles(d))) {
    const source = readFileSync(join(ROOT, path), 'utf8')
    for (const f of functionsOf(path, source)) {
      if (f.lines > MAX_LINES) long.set(`${path} › ${f.name}`, f.lines)
    }
  }
  return long
}

/** What is wrong with `long` against the list `allowed`: unlisted, stale, unexplained entries. */
function checkLong(long: Map<string, number>, allowed: Record<string, string>): string[] {
  const unlisted = [...long]
    .filter(([key]) => !(key in allowed))
    .map(([key, lines]) => `${key}  (${lines} lines): split it, or list it with a reason`)
  const stale = Object.keys(allowed)
    .filter((key) => !long.has(key))
    .map((key) => `${key}: no longer long (or gone), strike it off LONG_FUNCTIONS`)
  const unexplained = Object.entries(allowed)
    .filter(([key, reason]) => long.has(key) && reason.trim() === '')
    .map(([key]) => `${key}: give the reason it stays long`)
  return [...unlisted, ...stale, ...unexplained]
}

describe('function length', () => {
  it(`no function of the shipped code is over ${MAX_LINES} lines unless listed with a reason; the list only shrinks`, () => {
    const problems = checkLong(longFunctions(), LONG_FUNCTIONS)
    expect(problems, problems.join('\n')).toEqual([])
  })

  it('the check fails on an unlisted long function, a stale entry and a missing reason (self-check)', () => {
    const long = new Map([
      ['a.ts › listed', 90],
      ['a.ts › unlisted', 81],
      ['a.ts › bare', 100],
    ])
    expect(
      checkLong(long, { 'a.ts › listed': 'a table', 'a.ts › gone': 'was long', 'a.ts › bare': '' }),
    ).toEqual([
      'a.ts › unlisted  (81 lines): split it, or list it with a reason',
      'a.ts › gone: no longer long (or gone), strike it off LONG_FUNCTIONS',
      'a.ts › bare: give the reason it stays long',
    ])
  })

  it('finds and names functions of each kind, and counts their lines (self-check)', () => {
    const body = (n: number) =>
      Array.from({ length: n }, (_, i) => `  const a${i} = ${i}`).join('\n')
    const source = `
function declared() {
${body(3)}
}
export const arrow = (x: number) => {
${body(1)}
}
export default function () {}
class Box {
  method() {
${body(2)}
  }
  field = () => 1
}
const obj = { prop: () => 2, short() { return 3 } }
export const routes = (db: unknown) =>
  app
    .get('/a', async (c) => {
${body(2)}
    })
    .post('/b', (c) => c)
    .post('/c', (c) => c)
const Wrapped = memo(function Inner() { return null })
const Lazy = memo(() => null)
`
    expect(functionsOf('x.tsx', source)).toEqual([
      { name: 'declared', lines: 5 },
      { name: 'arrow', lines: 3 },
      { name: 'default', lines: 1 },
      { name: 'method', lines: 4 },
      { name: 'field', lines: 1 },
      { name: 'prop', lines: 1 },
      { name: 'short', lines: 1 },
      { name: 'routes', lines: 8 },
      { name: 'routes › get callback', lines: 4 },
      { name: 'routes › post callback', lines: 1 },
      { name: 'routes › post callback #2', lines: 1 },
      { name: 'Inner', lines: 1 },
      { name: 'Lazy', lines: 1 },
    ])
  })
})
