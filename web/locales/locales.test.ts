import { describe, expect, test } from 'bun:test'
import { allStrings } from './all'
import { Glob } from 'bun'
import { manageNamespaces, namespaces } from '.'
import enManage from './en/manage'

const keys = (tree: object, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) => (typeof v === 'object' && v ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]))

describe('locales', () => {
  test('every namespace is listed, for both languages', () => {
    expect(Object.keys(allStrings.en).sort()).toEqual([...namespaces].sort())
    expect(Object.keys(allStrings.de).sort()).toEqual([...namespaces].sort())
  })

  // An English page loads only the English strings, so it must never need the German fallback.
  test('English and German have the same keys', () => {
    for (const ns of namespaces) expect(keys(allStrings.en[ns]).sort(), ns).toEqual(keys(allStrings.de[ns]).sort())
  })

  // The chat and the other signed-in screens do not load the settings and administration strings
  // (./en/manage.ts): only the pages under those layouts and the two-factor set-up use them.
  test('the settings and administration strings are used only by their pages', async () => {
    expect(Object.keys(enManage).sort()).toEqual([...manageNamespaces].sort())
    const ns = manageNamespaces.join('|')
    const use = new RegExp(`useTranslation\\(\\[?'(?:${ns})'|['"\`](?:${ns}):[\\w.]|ns: \\[?'(?:${ns})'`)
    const theirs = /^web\/(?:features\/(?:settings|api-keys|audit|billing|groups|mails|mcp-servers|security|usage|models|members)\/|routes\/(?:settings|admin|two-factor-setup))/
    const root = new URL('../..', import.meta.url).pathname
    const others: string[] = []
    for await (const file of new Glob('web/**/*.{ts,tsx}').scan(root)) {
      if (file.includes('.test.') || theirs.test(file)) continue
      if (use.test(await Bun.file(root + file).text())) others.push(file)
    }
    expect(others).toEqual([])
  })
})
