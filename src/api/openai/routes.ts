import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { z } from 'zod'
import { isAbort } from '../../ai'
import type { AppEnv } from '../../lib/context'
import { AppError, type ErrorCode } from '../../lib/errors'
import { defineRoute, type RouteDef } from '../../lib/route'
import { apiKeyCaller } from '../api-keys/access'
import { auditFrom, recordAudit } from '../audit/access'
import { ApiError, toOpenAiError } from './errors'
import * as s from './schema'
import * as service from './service'

/** The largest request body /v1 takes: a long conversation fits, a runaway upload does not. */
export const API_BODY_LIMIT = 4 * 1024 * 1024

const tag = 'OpenAI-compatible API'
const errors: ErrorCode[] = ['INVALID_API_KEY', 'API_ACCESS_DISABLED', 'TOO_MANY_REQUESTS']
const common = { base: '/v1' as const, tag, access: 'apiKey' as const, errors }

/** OpenAI's API for the models a user may use, with `Authorization: Bearer <API key>` (docs/decisions/0053). */
export const openAiRoutes: RouteDef[] = [
  defineRoute({ ...common, method: 'get', path: '/models', summary: 'The models the key\'s owner may use', response: s.modelList }, ({ deps, user }) =>
    service.listModels(deps, user),
  ),
  defineRoute(
    { ...common, method: 'get', path: '/models/:model{.+}', summary: 'One model', params: s.modelParams, response: s.modelObject, errors: [...common.errors, 'MODEL_NOT_FOUND'] },
    ({ deps, user, params }) => service.getModel(deps, user, params.model),
  ),
  defineRoute(
    {
      ...common,
      method: 'post',
      path: '/chat/completions',
      summary: 'A chat completion; with stream: true as Server-Sent Events in OpenAI\'s chunk format',
      body: s.chatCompletionBody,
      response: s.chatCompletionResponse,
      errors: [...common.errors, 'MODEL_NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'PROVIDER_UNAVAILABLE'],
    },
    ({ c, deps, user, body }) => service.chatCompletion(deps, user, body, c.req.raw.signal),
  ),
  defineRoute(
    {
      ...common,
      method: 'post',
      path: '/embeddings',
      summary: "Embeddings with the organisation's embedding model",
      body: s.embeddingsBody,
      response: s.embeddingsResponse,
      errors: [...common.errors, 'MODEL_NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'PROVIDER_UNAVAILABLE'],
    },
    ({ c, deps, user, body }) => service.createEmbeddings(deps, user, body, c.req.raw.signal),
  ),
]

function answerError(c: Context<AppEnv>, error: unknown) {
  // The client left and its call was ended for it: nobody reads an answer, and nothing failed.
  if (c.req.raw.signal.aborted && isAbort(error)) {
    c.get('logger').info('the client left before its answer')
    return c.body(null, 499 as ContentfulStatusCode)
  }
  const { status, body, retryAfter } = toOpenAiError(error, c.get('logger'))
  if (retryAfter) c.header('Retry-After', String(retryAfter))
  return c.json(body, status)
}

const bearer = (c: Context<AppEnv>) => c.req.header('authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]

function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  const path = issue.path.map(String).join('.')
  throw new AppError('VALIDATION_FAILED', { fields: { [path || 'body']: issue.message } })
}

async function readJson(c: Context<AppEnv>) {
  const text = await c.req.text()
  try {
    const value = JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value)) return value
  } catch {}
  throw new ApiError('INVALID_JSON', null, { message: 'We could not parse the JSON body of your request. It must be a JSON object.' })
}

/**
 * The /v1 app: every call is authenticated by its API key (better-auth's plugin checks it), counted
 * against the key's rate limit, validated, and answered, failures included, in OpenAI's format.
 * No session cookie is read, so cross-site request forgery has nothing to ride on.
 */
export function createOpenAiApi() {
  const v1 = new Hono<AppEnv>()
  v1.use(bodyLimit({ maxSize: API_BODY_LIMIT, onError: (c) => answerError(c, new AppError('PAYLOAD_TOO_LARGE')) }))
  for (const r of openAiRoutes) {
    v1.on(r.method.toUpperCase(), r.path, async (c) => {
      try {
        const deps = c.get('deps')
        const { user, keyId } = await apiKeyCaller(deps, bearer(c))
        c.set('user', user)
        await service.countCall(deps, keyId)
        const params = r.params ? parse(r.params, c.req.param()) : undefined
        const body = r.body ? parse(r.body, await readJson(c)) : undefined
        // Each call that reaches a model is in the audit log: which key, which endpoint and model.
        if (r.method === 'post') {
          // The model as asked for (not yet checked): cut to a model id's length, never a body's.
          const model = (body as { model?: string } | undefined)?.model?.slice(0, 200)
          await recordAudit(deps, user, auditFrom(c), { action: 'api.called', target: { type: 'api_key', id: keyId }, details: { endpoint: `/v1${r.path}`, model } })
        }
        const result = await r.handler({ c, deps, user, body, params, query: undefined })
        return result instanceof Response ? result : c.json(result)
      } catch (error) {
        return answerError(c, error)
      }
    })
  }
  v1.all('*', (c) => answerError(c, new ApiError('NOT_FOUND', null, { message: `Unknown request URL: ${c.req.method} ${c.req.path}.` })))
  return v1
}
