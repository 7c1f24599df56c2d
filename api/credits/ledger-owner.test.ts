// One owner of the balance: only the ledger (api/credits/ledger.ts) moves a
// member's credits or writes a ledger row; every other module reads them or
// calls the ledger (the paid send builds its single statement from
// debitInStatement). A second UPDATE of members.credits elsewhere would be a
// second copy of the rule that no test of the ledger covers.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const API = fileURLToPath(new URL('..', import.meta.url))

/** Writes of the balance or the ledger, in SQL text or drizzle calls. */
const BALANCE_WRITES = [
  /UPDATE\s+members\s+SET\s+credits\b/i,
  /INSERT\s+INTO\s+credit_ledger\b/i,
  /\.insert\(\s*creditLedger\s*\)/,
  /credits:\s*sql`\$\{members\.credits\}/,
]

function balanceWriters(files: { path: string; source: string }[]): string[] {
  return files
    .filter((f) => !f.path.startsWith('credits/') && !/\.test\.ts$/.test(f.path))
    .filter((f) => !f.path.startsWith('test/'))
    .filter((f) => BALANCE_WRITES.some((re) => re.test(f.source)))
    .map((f) => f.path)
}

function apiFiles(dir = API): { path: string; source: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name)
    if (entry.isDirectory()) return apiFiles(full)
    if (!entry.name.endsWith('.ts')) return []
    return [{ path: relative(API, full).split('\\').join('/'), source: readFileSync(full, 'utf8') }]
  })
}

describe('the ledger owns every debit and credit', () => {
  it('no module outside api/credits/ writes a balance or a ledger row', () => {
    const files = apiFiles()
    expect(files.length, 'the scan finds the API').toBeGreaterThan(100)
    expect(balanceWriters(files)).toEqual([])
  })

  it('finds a second copy of the debit (self-check)', () => {
    expect(
      balanceWriters([
        { path: 'chats/send.ts', source: 'UPDATE members SET credits = credits - 10' },
        { path: 'payments/x.ts', source: 'await tx.insert(creditLedger).values(row)' },
        { path: 'credits/ledger.ts', source: 'UPDATE members SET credits = credits - 1' },
        { path: 'chats/read.ts', source: 'db.select().from(creditLedger)' },
      ]),
    ).toEqual(['chats/send.ts', 'payments/x.ts'])
  })
})
