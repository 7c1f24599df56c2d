import { describe, expect, it } from 'vitest'
import { consoleOnlyFiles, type Manifest } from './console-chunks.ts'

describe('console chunks left out of the precache', () => {
  const manifest: Manifest = {
    'index.html': {
      file: 'assets/index-a.js',
      imports: ['_react.js'],
      dynamicImports: [
        'routes/_default/operator/_console/audit.tsx?tsr-split=component',
        'routes/_default/login.tsx?tsr-split=component',
      ],
    },
    '_react.js': { file: 'assets/react-b.js' },
    '_operator.js': { file: 'assets/operator-c.js', imports: ['_react.js'] },
    '_shared.js': { file: 'assets/shared-d.js' },
    'routes/_default/operator/_console/audit.tsx?tsr-split=component': {
      file: 'assets/audit-e.js',
      imports: ['_operator.js', '_shared.js', '_react.js'],
      css: ['assets/operator-f.css'],
    },
    'routes/_default/login.tsx?tsr-split=component': {
      file: 'assets/login-g.js',
      imports: ['_shared.js', '_react.js'],
      css: ['assets/site-h.css'],
    },
  }

  it('takes the console routes, what only they import and their own stylesheets', () => {
    expect(consoleOnlyFiles(manifest)).toEqual([
      'assets/audit-e.js',
      'assets/operator-c.js',
      'assets/operator-f.css',
    ])
  })

  it('keeps what member pages share with the console', () => {
    const files = consoleOnlyFiles(manifest)
    expect(files).not.toContain('assets/shared-d.js')
    expect(files).not.toContain('assets/react-b.js')
    expect(files).not.toContain('assets/login-g.js')
  })
})
