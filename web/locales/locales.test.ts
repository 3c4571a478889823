import { describe, expect, test } from 'bun:test'
import { allStrings } from './all'
import { namespaces } from '.'

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
})
