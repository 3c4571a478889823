import { z } from 'zod'
import { ERRORS } from './errors'
import type { RouteDef } from './route'

const toSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as Record<string, unknown>

const errorSchema = {
  type: 'object',
  required: ['code', 'message', 'status'],
  properties: {
    code: { type: 'string', enum: Object.keys(ERRORS) },
    message: { type: 'string' },
    status: { type: 'integer' },
    fields: { type: 'object', additionalProperties: { type: 'string' } },
  },
}

/** The OpenAI-compatible API's errors (/v1), in OpenAI's shape. */
const openAiErrorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['message', 'type', 'code', 'param'],
      properties: { message: { type: 'string' }, type: { type: 'string' }, code: { type: 'string', nullable: true }, param: { type: 'string', nullable: true } },
    },
  },
}

/** The OpenAPI 3 document, generated from the same zod schemas that validate the routes. */
export function buildOpenApi(routes: RouteDef[], info: { version: string }) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const r of routes) {
    const path = (r.base ?? '/api') + r.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}')
    const apiKey = r.access === 'apiKey'
    const parameters: unknown[] = []
    for (const [where, schema] of [
      ['path', r.params],
      ['query', r.query],
    ] as const) {
      if (!schema) continue
      const json = toSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] }
      for (const [name, s] of Object.entries(json.properties ?? {})) {
        parameters.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: s })
      }
    }
    const status = String(r.status ?? 200)
    const responses: Record<string, unknown> = {
      [status]:
        status === '204'
          ? { description: 'No content' }
          : r.stream
            ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
          : r.download
            ? { description: 'A download (Content-Disposition: attachment)', content: Object.fromEntries(r.download.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) }
          : {
              description: 'Success',
              ...(r.response && { content: { 'application/json': { schema: toSchema(r.response, 'output') } } }),
            },
    }
    const codes = new Set(r.errors ?? [])
    if (r.body || r.query || r.params) codes.add('VALIDATION_FAILED')
    if (r.access !== 'public' && !apiKey) codes.add('UNAUTHORIZED')
    if (r.access === 'user' || r.access === 'admin') codes.add('EMAIL_NOT_VERIFIED')
    if (r.access === 'admin') codes.add('FORBIDDEN')
    // Every state-changing route refuses what a browser sent for another site (src/lib/cross-site.ts).
    if (r.method !== 'get' && !apiKey) codes.add('CSRF_REJECTED')
    for (const code of codes) {
      const s = String(ERRORS[code][0])
      const existing = responses[s] as { description: string } | undefined
      responses[s] = {
        description: existing ? `${existing.description}, ${code}` : code,
        content: { 'application/json': { schema: apiKey ? openAiErrorSchema : errorSchema } },
      }
    }
    paths[path] ??= {}
    paths[path][r.method] = {
      summary: r.summary,
      tags: [r.tag],
      ...(r.access !== 'public' && { security: [apiKey ? { apiKey: [] } : { session: [] }] }),
      ...(parameters.length && { parameters }),
      ...(r.body && { requestBody: { required: true, content: { 'application/json': { schema: toSchema(r.body, 'input') } } } }),
      responses,
    }
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Kontor API', version: info.version },
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'kontor.session_token' },
        apiKey: { type: 'http', scheme: 'bearer', description: 'A personal API key (Settings → API keys)' },
      },
    },
    paths,
  }
}
