import { expect, test } from 'bun:test'
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { withLanguageDir } from './tesseract'

test('the language data are there while the engine starts, and their folder goes once it has, also when it fails', async () => {
  let seen = ''
  const sizes = await withLanguageDir(async (path) => {
    seen = path
    return ['eng', 'deu'].map((code) => statSync(join(path, `${code}.traineddata.gz`)).size)
  })
  expect(sizes.every((size) => size > 100_000)).toBe(true)
  expect(existsSync(seen)).toBe(false)

  let failed = ''
  const failing = withLanguageDir(async (path) => {
    failed = path
    throw new Error('the engine did not start')
  })
  await expect(failing).rejects.toThrow('the engine did not start')
  expect(failed).not.toBe('')
  expect(existsSync(failed)).toBe(false)
})
