import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { INDEX_FILE, routeIndexSource } from './route-index.gen'

test('src/api/route-index.ts is what src/api/route-index.gen.ts writes from the domains\' routes now (run it after changing a route)', async () => {
  expect(readFileSync(INDEX_FILE, 'utf8')).toBe(await routeIndexSource())
})
