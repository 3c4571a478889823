import { afterAll, beforeAll, expect, test } from 'bun:test'
import { z } from 'zod'
import { createTestApp } from '../../tests/support/test-app'
import { loadApiRoutes } from '../app'
import { openAiRoutes } from '../api/openai/routes'
import { buildOpenApi } from './openapi'
import { defineRoute } from './route'

let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => (t = await createTestApp()))
afterAll(() => t.close())

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' })

test('/api/docs has exactly the mounted routes, each with the JSON schema of its own zod schemas', async () => {
  const res = await t.client().get('/api/docs')
  expect(res.status).toBe(200)
  const doc = res.body as { paths: Record<string, Record<string, any>> }
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${path}`))
  const documented = [...(await loadApiRoutes()), ...openAiRoutes]
  const pathOf = (r: (typeof documented)[number]) => `${r.base ?? '/api'}${r.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}')}`
  const expected = documented.map((r) => `${r.method} ${pathOf(r)}`)
  expect(operations.sort()).toEqual([...new Set(expected)].sort())
  for (const r of documented) {
    const op = doc.paths[pathOf(r)]![r.method]
    if (r.body) expect(op.requestBody.content['application/json'].schema).toEqual(jsonSchema(r.body, 'input'))
    const success = op.responses[String(r.status ?? 200)]
    if (r.response && !r.stream) expect(success.content['application/json'].schema).toEqual(jsonSchema(r.response, 'output'))
  }
})

test('a change to a route schema is a change to the document', () => {
  const route = (body: z.ZodType) =>
    defineRoute({ method: 'post', path: '/things', tag: 'Things', summary: 'Make a thing', access: 'user', body, response: z.object({ id: z.string() }) }, async () => ({ id: 'x' }))
  const before = buildOpenApi([route(z.object({ name: z.string() }))], { version: '1' }).paths['/api/things']!.post as any
  const after = buildOpenApi([route(z.object({ name: z.string(), size: z.number().int().min(1) }))], { version: '1' }).paths['/api/things']!.post as any
  expect(before.requestBody.content['application/json'].schema.required).toEqual(['name'])
  expect(after.requestBody.content['application/json'].schema.required).toEqual(['name', 'size'])
  expect(after.requestBody.content['application/json'].schema.properties.size).toMatchObject({ type: 'integer', minimum: 1 })
  expect(Object.keys(after.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403']))
})

test('the OpenAI-compatible API is documented with its bearer key and OpenAI\'s error shape', async () => {
  const doc = (await t.client().get('/api/docs')).body as any
  expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' })
  const chat = doc.paths['/v1/chat/completions'].post
  expect(chat.security).toEqual([{ apiKey: [] }])
  expect(chat.responses['401'].content['application/json'].schema.properties.error.required).toEqual(['message', 'type', 'code', 'param'])
  expect(Object.keys(chat.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '413', '429']))
  expect(doc.paths['/v1/models/{model}'].get.parameters).toEqual([expect.objectContaining({ name: 'model', in: 'path' })])
})
