import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { oneLocaleMessage, projectLocales, staticLocaleRuntime } from './light-vite-plugin.ts'

// The modules as Paraglide writes them (`npm run i18n` compiles them first).
const read = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../messages/paraglide/${path}`, import.meta.url)), 'utf8')

describe("the light entry's copy per language", () => {
  it('is built for each of the seven languages', () => {
    expect(projectLocales()).toEqual(['en', 'nl', 'de', 'it', 'fr', 'es', 'pl'])
  })

  it("reduces a message to its language's text: no other language is picked", () => {
    const code = read('messages/home_how_title.js')
    const de = oneLocaleMessage(code, 'de')
    expect(de).not.toMatch(/if \(locale === /)
    expect(de).toMatch(/^\treturn de_home_how_title\(inputs\)$/m)
    expect(de).not.toMatch(/return (en|nl|it|fr|es|pl)_home_how_title\(inputs\)/)
    // English keeps its own text.
    expect(oneLocaleMessage(code, 'en')).toMatch(/^\treturn en_home_how_title\(inputs\)$/m)
  })

  it('reduces a message with inputs the same way', () => {
    const pl = oneLocaleMessage(read('messages/tile_age.js'), 'pl')
    expect(pl).toMatch(/^\treturn pl_tile_age\(inputs\)$/m)
    expect(pl).not.toMatch(/if \(locale === /)
  })

  it('fails the build on a module Paraglide did not write as expected', () => {
    expect(() => oneLocaleMessage('export const x = () => "x"', 'de')).toThrow(/message picker/)
    expect(() => staticLocaleRuntime('export const x = 1', 'de')).toThrow(
      /experimentalStaticLocale/,
    )
  })

  it('fixes the runtime to the language, so getLocale() answers it', () => {
    const out = staticLocaleRuntime(read('runtime.js'), 'fr')
    expect(out).toContain('export const experimentalStaticLocale = "fr";')
  })
})
