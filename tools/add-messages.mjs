#!/usr/bin/env node
// Adds or replaces translated texts in messages/<locale>.json, all seven at
// once, keeping each file's order and format. Run it with a JSON file of
// { "key": { "en": "…", "nl": "…", "de": "…", "it": "…", "fr": "…", "es": "…", "pl": "…" } }.
// Several people (or helpers) may run it at the same time: it holds an
// exclusive lock file while it reads and writes.
//   node tools/add-messages.mjs new-texts.json
import { execFileSync } from 'node:child_process'
import { closeSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'

const LOCALES = ['en', 'nl', 'de', 'it', 'fr', 'es', 'pl']
const file = process.argv[2]
if (!file) {
  console.error('usage: node tools/add-messages.mjs <texts.json>')
  process.exit(2)
}
const texts = JSON.parse(readFileSync(file, 'utf8'))
for (const [key, byLocale] of Object.entries(texts)) {
  if (!/^[a-z][a-z0-9_]*$/.test(key)) throw new Error(`bad key ${key}`)
  for (const l of LOCALES) if (byLocale[l] === undefined) throw new Error(`${key}: missing ${l}`)
}
const lock = new URL('../messages/.lock', import.meta.url)
let fd
for (let i = 0; ; i++) {
  try {
    fd = openSync(lock, 'wx')
    break
  } catch {
    if (i > 600) throw new Error('messages/.lock held for a minute: remove it if no one is writing')
    await sleep(100)
  }
}
try {
  for (const l of LOCALES) {
    const path = new URL(`../messages/${l}.json`, import.meta.url)
    const cat = JSON.parse(readFileSync(path, 'utf8'))
    for (const [key, byLocale] of Object.entries(texts)) cat[key] = byLocale[l]
    writeFileSync(path, `${JSON.stringify(cat, null, 2)}\n`)
  }
  // The project's formatter has the last word on layout (short arrays on one line).
  execFileSync('npx', ['biome', 'format', '--write', ...LOCALES.map((l) => `messages/${l}.json`)], {
    cwd: new URL('..', import.meta.url),
    stdio: 'ignore',
  })
} finally {
  closeSync(fd)
  unlinkSync(lock)
}
console.log(`${Object.keys(texts).length} texts written in ${LOCALES.length} languages`)
