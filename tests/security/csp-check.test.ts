/**
 * Every browser test checks the pages' Content-Security-Policy: it takes `test` from
 * tests/e2e/support/test.ts, which fails a test during which a page reported a violation.
 */
import { expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const tests = resolve(import.meta.dir, '..')

test('every browser test file takes `test` from the support module that checks for CSP violations', () => {
  const files = ['e2e', 'security'].flatMap((folder) =>
    readdirSync(join(tests, folder))
      .filter((name) => name.endsWith('.e2e.ts'))
      .map((name) => join(folder, name)),
  )
  expect(files.length).toBeGreaterThan(10)
  for (const file of files) {
    const imports = new Bun.Transpiler({ loader: 'ts' }).scan(readFileSync(join(tests, file), 'utf8')).imports.map((i) => i.path)
    const source = readFileSync(join(tests, file), 'utf8')
    expect(imports.some((path) => /(^|\/)support\/test$/.test(path)), file).toBe(true)
    expect(source, file).not.toMatch(/import\s*\{[^}]*\btest\b[^}]*\}\s*from\s*'@playwright\/test'/)
  }
})
