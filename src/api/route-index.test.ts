import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { defineRoute } from '../lib/route'
import { INDEX_FILE, routeIndexSource, routeKeys } from './route-index.gen'

test('src/api/route-index.ts is what src/api/route-index.gen.ts writes from the domains\' routes now (run it after changing a route)', async () => {
  expect(readFileSync(INDEX_FILE, 'utf8')).toBe(await routeIndexSource())
})

test('the index refuses a route declared twice and routes that mount themselves elsewhere', () => {
  const route = (path: string, extra: object = {}) => defineRoute({ method: 'get', path, summary: 's', tag: 't', access: 'user', ...extra }, async () => null)
  expect(routeKeys([route('/a'), route('/b')])).toEqual(['GET /a', 'GET /b'])
  expect(() => routeKeys([route('/a'), route('/a')])).toThrow('GET /a is declared twice')
  // Across domains too: the set of keys seen so far goes from one domain to the next.
  const seen = new Set<string>()
  routeKeys([route('/a')], seen)
  expect(() => routeKeys([route('/a')], seen)).toThrow('declared twice')
  expect(() => routeKeys([route('/c', { access: 'apiKey' })])).toThrow('mount themselves')
  expect(() => routeKeys([route('/c', { base: '/v1', body: z.object({}) })])).toThrow('mount themselves')
})
