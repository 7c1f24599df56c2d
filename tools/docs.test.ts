// The documentation's own rules: the README stays a short description of the
// project, decisions live in docs/ and benchmark figures in bench/RESULTS.md,
// every relative link and its #section resolves, code comments point at
// docs/ pages, never into a README section (docs link to code, not the other
// way round), every file and doc section a code comment names exists, and
// docs/architecture.md lists every folder of api/.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseSync } from 'vite'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const SELF = path.relative(ROOT, fileURLToPath(import.meta.url))
const README_MAX_LINES = 400

const texts = new Map<string, string>()
/** A file's text, read once for all the checks. */
const read = (file: string) => {
  let text = texts.get(file)
  if (text === undefined) {
    text = readFileSync(path.join(ROOT, file), 'utf8')
    texts.set(file, text)
  }
  return text
}

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

/** The repository's files (generated and installed ones left out) whose name passes `keep`. */
function repoFiles(keep: (name: string) => boolean, dir = ''): string[] {
  const out: string[] = []
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.data-'))
        out.push(...repoFiles(keep, rel))
    } else if (keep(entry.name)) out.push(rel)
  }
  return out
}

let walked: string[] | undefined
/** Every file of the repository, walked once for all the checks. */
const everyFile = () => {
  walked ??= repoFiles(() => true)
  return walked
}

const codeFiles = () => everyFile().filter((f) => /\.tsx?$/.test(f))

/**
 * The repository's top folders, from which a comment names a path
 * (`api/http/idempotency.ts`, `docs/live.md`, `sync/core/`).
 */
const TOP = 'api|app|bench|db|deploy|docs|e2e|integration|messages|public|sw|sync|tools'
const ROOTED = new RegExp(`^(?:${TOP})/`)
/** A path from the repository's root: a top folder, then a file with its extension or a folder. */
const ROOTED_PATH = new RegExp(
  `(?<![\\w./@:$~-])(?:${TOP})/[\\w$.[\\]/-]*(?:\\.[a-z]+\\b|/)(?:#[\\w-]+)?`,
  'g',
)
/** Any other path with a folder and a file (`features/site/flags.ts`, `rules/payments.ts`). */
const PARTIAL_PATH =
  /(?<![\w./@:$~-])(?:\.\.?\/)*[\w$[\]-][\w$.[\]-]*\/[\w$.[\]/-]*\.(?:tsx?|mjs|md|css|sql)\b/g
/** A file named alone (`reconcile.test.ts`, `harness.ts`). */
const FILE_NAME = /(?<![\w./@:$~-])[\w$[\]-][\w$.[\]-]*\.(?:tsx?|mjs|md|css|sql)\b(?![\w/-])/g
/** Where a path is not the repository's: what the build, the tests and installs make. */
const NOT_OURS = /^(?:dist|dist-ssr|\.data|\.vite|node_modules|test-results|coverage)\//
/** An example, not a file: a one-letter part (`api/chats/x.ts`, `app/routes/X/-components/`). */
const isExample = (p: string) =>
  p.split('/').some((part) => /^[a-zA-Z]$/.test(part.split('.')[0] ?? ''))
/** A citation of a markdown file's section: `docs/x.md#anchor` or `docs/x.md, "Heading"`. */
const SECTION_CITE =
  /(?<![\w/.-])((?:[\w-]+\/)*[\w-]+\.md)(?:#([\w-]+)|(?:[\s,(]|→)*["“]([^"”]+)["”])/g
/** A pointer into the architecture sketch, a document outside the repository. */
const OUTSIDE_DOC = /\bARCHITECTURE\b/

/** Every file of the repository, by path, for the check of partial paths and names. */
const allFiles = () => everyFile().filter((f) => !f.startsWith('messages/paraglide/'))

/** `## Heading` of a markdown text, each as written (for quoted citations) and as its #anchor. */
function headingsOf(markdown: string): { names: string[]; anchors: Set<string> } {
  const names: string[] = []
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  const prose = markdown.replace(/```[\s\S]*?```/g, '')
  for (const m of prose.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const heading = m[1] ?? ''
    names.push(heading)
    // GitHub's anchor: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2.
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    anchors.add(n === 0 ? slug : `${slug}-${n}`)
  }
  // Named places a comment may quote besides headings: a table row's first
  // cell (`| Weak passwords |`) and a paragraph's bold lead (`**Checks.**`).
  for (const m of prose.matchAll(/^\|\s*([^|]+?)\s*\|/gm)) names.push(m[1] ?? '')
  for (const m of prose.matchAll(/^(?:[-*]\s+)?\*\*([^*]+?)\.?\*\*/gm)) names.push(m[1] ?? '')
  return { names, anchors }
}

const plain = (text: string) => text.replace(/`/g, '').replace(/\s+/g, ' ').trim().toLowerCase()

/** Whether `quoted` names `name`: the whole of it, or its start up to a break (`Pictures` of `Pictures: object storage`). */
const namesPlace = (quoted: string, name: string) => {
  const q = plain(quoted)
  const n = plain(name)
  return n === q || (n.startsWith(q) && !/[\p{L}\p{N}]/u.test(n[q.length] ?? ''))
}

/**
 * The repository as the reference check sees it: which paths exist, and the
 * headings of each markdown file (read once, when first asked).
 */
function readRepository() {
  const files = allFiles()
  const names = new Set(files.map((f) => f.split('/').pop() ?? f))
  const paths = new Set(files)
  for (const f of files)
    for (let dir = path.posix.dirname(f); dir !== '.'; dir = path.posix.dirname(dir)) paths.add(dir)
  const docs = new Map<string, ReturnType<typeof headingsOf>>()
  return {
    exists: (p: string) => {
      const normal = path.posix.normalize(p).replace(/\/$/, '')
      return paths.has(normal) || existsSync(path.join(ROOT, normal))
    },
    /** Some file of the repository ends with this path (a path from a folder the comment does not name). */
    endsWith: (p: string) => files.some((f) => f === p || f.endsWith(`/${p}`)),
    hasName: (name: string) => names.has(name),
    headings(doc: string) {
      let h = docs.get(doc)
      if (!h) {
        h = headingsOf(readFileSync(path.join(ROOT, doc), 'utf8'))
        docs.set(doc, h)
      }
      return h
    },
  }
}
type Repository = ReturnType<typeof readRepository>
let repositoryRead: Repository | undefined
const repository = () => {
  repositoryRead ??= readRepository()
  return repositoryRead
}

/** The markdown file a citation names, from the citing file's folder or the root; undefined when there is none. */
function markdownFile(repo: Repository, from: string, cited: string): string | undefined {
  for (const candidate of [path.posix.join(path.posix.dirname(from), cited), cited]) {
    if (candidate.endsWith('.md') && repo.exists(candidate)) return candidate
  }
  return undefined
}

/**
 * What a comment of `file` names that is not there: a path (from the root,
 * from the file's folder, or the tail of some file's path), a file's name, a
 * section of a markdown file (a heading, a table row, a bold lead, or its
 * #anchor), and any pointer into the architecture sketch, which lives outside
 * the repository. Web addresses are skipped.
 */
function brokenReferences(repo: Repository, file: string, comment: string): string[] {
  const text = comment.replace(/\b[a-z][a-z+.-]*:\/\/\S+/gi, ' ')
  const broken: string[] = []
  const here = path.posix.dirname(file)
  const found = (p: string) => repo.exists(p) || repo.exists(path.posix.join(here, p))
  for (const m of text.matchAll(ROOTED_PATH)) {
    const [target = '', anchor] = m[0].split('#')
    const p = target.replace(/[.,;:]+$/, '')
    if (isExample(p)) continue
    if (!repo.exists(p)) broken.push(`no file ${p}`)
    else if (anchor && p.endsWith('.md') && !repo.headings(p).anchors.has(anchor))
      broken.push(`no section #${anchor} in ${p}`)
  }
  for (const m of text.matchAll(PARTIAL_PATH)) {
    const p = m[0]
    if (ROOTED.test(p) || NOT_OURS.test(p) || isExample(p)) continue
    if (!found(p) && !repo.endsWith(p.replace(/^(?:\.\.?\/)+/, ''))) broken.push(`no file ${p}`)
  }
  for (const m of text.matchAll(FILE_NAME)) {
    const name = m[0]
    if (isExample(name)) continue
    if (!repo.hasName(name)) broken.push(`no file named ${name}`)
  }
  for (const m of text.matchAll(SECTION_CITE)) {
    const [, cited = '', anchor, quoted] = m
    const doc = markdownFile(repo, file, cited)
    if (!doc) continue // a missing file is reported above
    const { names, anchors } = repo.headings(doc)
    if (anchor !== undefined && !anchors.has(anchor)) broken.push(`no section #${anchor} in ${doc}`)
    if (quoted !== undefined && !names.some((n) => namesPlace(quoted, n)))
      broken.push(`no section "${quoted}" in ${doc}`)
  }
  if (OUTSIDE_DOC.test(text))
    broken.push(
      'points into ARCHITECTURE, which is not in the repository (docs/architecture.md is)',
    )
  return [...new Set(broken)]
}

/**
 * The comments of a source file, each run of adjacent ones (a `//` block, a
 * `/** *\/`) as one text, so a citation may run on over a line break. Read
 * from the syntax tree (a path in a string or an import is no comment); a
 * style sheet's are its `/* *\/` blocks.
 */
function commentsOf(file: string, source: string): string[] {
  if (file.endsWith('.css'))
    return [...source.matchAll(/\/\*([\s\S]*?)\*\//g)].map((m) => m[1] ?? '')
  const { comments } = parseSync(file, source)
  const runs: string[] = []
  let end = -1
  for (const c of comments) {
    const text = c.value.replace(/^\s*\*+/gm, ' ')
    if (end >= 0 && /^\s*$/.test(source.slice(end, c.start))) runs[runs.length - 1] += ` ${text}`
    else runs.push(text)
    end = c.end
  }
  return runs.map((r) => r.replace(/\s+/g, ' '))
}

/**
 * Everything that may be a comment, markers blanked: each `//` to the end of
 * its line and each `/* … *\/`, in order. A quick first look that takes in
 * more than the comments (a `//` or `/*` inside a string counts too).
 */
const commentLike = (source: string) =>
  [...source.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)]
    .map((m) => m[0].replace(/^[ \t]*(?:\/\/+|\/\*+|\*+(?!\/))/gm, ' '))
    .join('\n')

/**
 * What the comments of a file name that is not there. Most files name
 * nothing missing in all that may be a comment, and need no parsing; a file
 * where something is missing is parsed, and only its comments count (a path
 * in a string or an import is no pointer).
 */
function brokenInFile(repo: Repository, file: string, source: string): string[] {
  if (brokenReferences(repo, file, commentLike(source)).length === 0) return []
  return [...new Set(commentsOf(file, source).flatMap((c) => brokenReferences(repo, file, c)))]
}

/** Sources whose comments are read: code, styles and scripts, generated ones left out. */
const commentedFiles = () =>
  allFiles().filter((f) => /\.(?:tsx?|mjs|css)$/.test(f) && !/\.gen\.tsx?$/.test(f))

describe('documentation', () => {
  it(`keeps README.md within ${README_MAX_LINES} lines`, () => {
    expect(lineCount(read('README.md'))).toBeLessThanOrEqual(README_MAX_LINES)
  })

  it('resolves every relative link of README.md, docs/*.md and bench/RESULTS.md, and its #section', () => {
    const repo = repository()
    const broken: string[] = []
    for (const file of markdownFiles()) {
      const links = markdownLinks(read(file)).filter((t) => isRelativePath(t) || t.startsWith('#'))
      for (const target of links) {
        const [targetPath = '', anchor] = target.split('#')
        const resolved = targetPath
          ? path.posix.join(path.posix.dirname(file), decodeURI(targetPath))
          : file
        if (!existsSync(path.join(ROOT, resolved))) broken.push(`${file}: ${target}`)
        else if (anchor && resolved.endsWith('.md') && !repo.headings(resolved).anchors.has(anchor))
          broken.push(`${file}: ${target} (no such section)`)
      }
    }
    expect(broken).toEqual([])
  })

  it("makes a heading's #anchor as GitHub does", () => {
    const { anchors } = headingsOf(
      [
        '# Several machines',
        '## Pool size: `DATABASE_POOL_SIZE`',
        '## Withdrawal (CRD Art. 11a and 16(m))',
        "## Held openings, the sender's side",
        '## Lighthouse (`bench/lighthouse.ts`)',
        '## Tests',
        '### Tests',
        '```',
        '## not a heading: in a code block',
        '```',
      ].join('\n'),
    )
    expect([...anchors]).toEqual([
      'several-machines',
      'pool-size-database_pool_size',
      'withdrawal-crd-art-11a-and-16m',
      'held-openings-the-senders-side',
      'lighthouse-benchlighthousets',
      'tests',
      'tests-1',
    ])
  })

  it('finds every file and doc section a code comment names', () => {
    const repo = repository()
    const broken: string[] = []
    const files = commentedFiles()
    // Guards against a scan that silently reads nothing.
    expect(files).toContain('api/http/idempotency.ts')
    expect(files).toContain('app/ui/live.css')
    for (const file of files)
      for (const problem of brokenInFile(repo, file, read(file))) broken.push(`${file}: ${problem}`)
    expect(broken).toEqual([])
  })

  it('tells a comment naming a file or section that is not there from one naming what is', () => {
    const repo = repository()
    const check = (comment: string) => brokenReferences(repo, 'api/chats/messages.ts', comment)
    for (const [comment, problem] of <[string, string][]>[
      ['(api/accounts/deps.ts linkBase)', 'no file api/accounts/deps.ts'],
      ['the folder api/nothing/ holds', 'no file api/nothing/'],
      ['(tested in likes-reconcile.test.ts)', 'no file named likes-reconcile.test.ts'],
      ['confirmed once (features/site/nothing.ts)', 'no file features/site/nothing.ts'],
      ['(docs/throttling.md)', 'no file docs/throttling.md'],
      ['(docs/live.md, "No such part")', 'no section "No such part" in docs/live.md'],
      ['(docs/live.md "Seen it all")', 'no section "Seen it all" in docs/live.md'],
      ['docs/live.md#no-such-part', 'no section #no-such-part in docs/live.md'],
      [
        '(ARCHITECTURE "Data and sync")',
        'points into ARCHITECTURE, which is not in the repository (docs/architecture.md is)',
      ],
    ])
      expect(check(comment), comment).toEqual([problem])
    for (const comment of [
      '(api/mail/site.ts linkBase)',
      'the worker and store (app/data/, sync/core/fence.ts)',
      'confirmed once (features/site/flags.ts)',
      'from the shared folder (../shared/rows.ts)',
      '(tested in reconcile.test.ts)',
      '(docs/several-machines.md, "Pictures")',
      '(docs/live.md "Held openings")',
      '(docs/security.md, "Weak passwords")',
      '(docs/sites-and-templates.md, "Checks")',
      'docs/live.md#held-openings-the-senders-side',
      '(docs/architecture.md ("Layer rules"))',
      'Lighthouse (https://github.com/GoogleChrome/lighthouse/blob/main/docs/throttling.md)',
      'what the build left in dist/ (dist/routes.json, dist-ssr/entry-server.js)',
      'the domain of a path (`api/chats/x.ts` → chats; app/routes/X/-components/)',
      'Spec §9 and spec §2/§4',
    ])
      expect(check(comment), comment).toEqual([])
  })

  it('reads comments from the syntax tree, a citation over two lines as one', () => {
    const source = [
      "import { x } from './nothing.ts'",
      "const s = 'api/nothing/missing.ts // docs/nothing.md'",
      '// Held (docs/live.md, "Held',
      '// openings").',
      'const t = `text // ARCHITECTURE`',
      '/**',
      ' * A block',
      ' */',
    ].join('\n')
    const comments = commentsOf('api/chats/example.ts', source)
    expect(comments.map((c) => c.trim())).toEqual([
      'Held (docs/live.md, "Held openings").',
      'A block',
    ])
    expect(commentsOf('app/ui/example.css', 'a { color: red } /* docs/live.md */')).toEqual([
      ' docs/live.md ',
    ])
    // What only code names is no finding; a comment's missing file, or a
    // section of one that runs on over a line, is.
    const repo = repository()
    expect(brokenInFile(repo, 'api/chats/example.ts', source)).toEqual([])
    expect(
      brokenInFile(
        repo,
        'api/chats/example.ts',
        `${source}\n// in api/nothing/missing.ts (docs/live.md, "Held\n// closings")`,
      ),
    ).toEqual(['no file api/nothing/missing.ts', 'no section "Held closings" in docs/live.md'])
  })

  it('lists every folder of api/ in docs/architecture.md, as a domain or a shared folder', () => {
    const text = read('docs/architecture.md').replace(/\s+/g, ' ')
    const listed =
      /Every folder of `api\/` is a domain \(([^)]*)\) except the shared ones: ([^(]*)/.exec(text)
    expect(listed, 'the sentence that lists the domains').not.toBeNull()
    const domains = (listed?.[1] ?? '').split(/,\s*/).map((d) => d.trim())
    const shared = [...(listed?.[2] ?? '').matchAll(/`([\w-]+)\/`/g)].map((m) => m[1] ?? '')
    const folders = readdirSync(path.join(ROOT, 'api'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
    expect([...domains, ...shared].sort()).toEqual(folders.sort())
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
