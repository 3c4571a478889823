import type { z } from 'zod'
import type { ChatMessage, ChatRequest, Completion, ToolChoice } from '../../ai'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { hitRateLimit } from '../../lib/rate-limit'
import { languageModels, embeddingModelOf, providerClient } from '../models/access'
import { admitModelCall } from '../usage/access'
import type { PermittedModel } from '../models/schema'
import { hasActiveSubscription } from '../subscriptions/access'
import { ApiError } from './errors'
import type { ChatCompletionBody, chatCompletionResponse, embeddingsBody, modelList, OpenAiMessage } from './schema'
import { streamCompletion, usageOf, type CompletionMeta } from './stream'

const RATE_WINDOW_MS = 60_000

/** Counts a call against the key's per-minute limit (the database-backed limiter every process shares). */
export async function countCall(deps: AppDeps, keyId: string) {
  const hit = await hitRateLimit(deps.db, `api-key:${keyId}`, { limit: deps.config.apiRateLimitPerMinute, windowMs: RATE_WINDOW_MS })
  if (!hit.allowed) throw new ApiError('TOO_MANY_REQUESTS', null, { message: 'Rate limit reached for this API key. Please try again later.', retryAfter: hit.retryAfterSeconds })
}

const modelNotFound = (name: string) =>
  new ApiError('MODEL_NOT_FOUND', 'model', { message: `The model '${name}' does not exist or you do not have access to it.` })

/** The language models the caller may use (the same list the web app offers), then the organisation's embedding model. */
export async function listModels(deps: AppDeps, caller: SessionUser): Promise<z.input<typeof modelList>> {
  const [language, embedding] = await Promise.all([languageModels(deps, caller), embeddingModel(deps, caller)])
  const created = Math.floor(Date.now() / 1000)
  const data = [...language, ...(embedding ? [embedding] : [])].map((m) => ({ id: m.modelId, object: 'model' as const, created, owned_by: m.providerId }))
  return { object: 'list', data }
}

export async function getModel(deps: AppDeps, caller: SessionUser, name: string) {
  const model = (await listModels(deps, caller)).data.find((m) => m.id === name)
  if (!model) throw modelNotFound(name)
  return model
}

const embeddingModel = (deps: AppDeps, caller: SessionUser): Promise<PermittedModel | null> => embeddingModelOf(deps, caller.organizationId)

/**
 * In the cloud, model calls through the API need a subscription (the trial's messages are for the
 * chat): without one, a key would reach the platform's provider accounts without limit.
 */
async function requireSubscription(deps: AppDeps, caller: SessionUser) {
  if (!(await hasActiveSubscription(deps, caller.organizationId))) fail('SUBSCRIPTION_REQUIRED')
}

/** A chat completion through the provider gateway, streamed (SSE) or whole; only models the caller may use. */
export async function chatCompletion(deps: AppDeps, caller: SessionUser, body: ChatCompletionBody, signal: AbortSignal) {
  await requireSubscription(deps, caller)
  const model = (await languageModels(deps, caller)).find((m) => m.modelId === body.model)
  if (!model) throw modelNotFound(body.model)
  const provider = await providerClient(deps, caller.organizationId, model.providerId, { userId: caller.id, threadId: null })
  const request = toChatRequest(model.model, body)
  const meta = { id: `chatcmpl-${crypto.randomUUID().replaceAll('-', '')}`, created: Math.floor(Date.now() / 1000), model: body.model }
  const admission = await admitModelCall(deps, caller)
  if (body.stream) {
    const options = { includeUsage: body.stream_options?.include_usage === true, signal, logger: deps.logger, onEnd: admission.release }
    return streamCompletion(provider, request, meta, options).catch(async (error) => {
      await admission.release()
      throw error
    })
  }
  try {
    return toCompletionResponse(await provider.complete({ ...request, signal }), meta)
  } finally {
    await admission.release()
  }
}

/** Embeddings with the organisation's embedding model (the only one the API offers for them). */
export async function createEmbeddings(deps: AppDeps, caller: SessionUser, body: z.infer<typeof embeddingsBody>, signal: AbortSignal) {
  await requireSubscription(deps, caller)
  const model = await embeddingModel(deps, caller)
  if (!model || model.modelId !== body.model) throw modelNotFound(body.model)
  const provider = await providerClient(deps, caller.organizationId, model.providerId, { userId: caller.id, threadId: null })
  const input = typeof body.input === 'string' ? [body.input] : body.input
  const admission = await admitModelCall(deps, caller)
  const { vectors, usage } = await provider.embed({ model: model.model, input, dimensions: body.dimensions, signal }).finally(admission.release)
  const tokens = usage?.inputTokens ?? 0
  return {
    object: 'list' as const,
    data: vectors.map((vector, index) => ({
      object: 'embedding' as const,
      index,
      embedding: body.encoding_format === 'base64' ? float32Base64(vector) : vector,
    })),
    model: body.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  }
}

function toChatRequest(model: string, body: ChatCompletionBody): ChatRequest {
  const maxTokens = body.max_completion_tokens ?? body.max_tokens
  return {
    model,
    messages: body.messages.map(toChatMessage),
    ...(body.tools?.length && {
      tools: body.tools.map((t) => ({ name: t.function.name, description: t.function.description ?? '', parameters: t.function.parameters ?? { type: 'object', properties: {} } })),
    }),
    ...(body.tool_choice && { toolChoice: (typeof body.tool_choice === 'string' ? body.tool_choice : { name: body.tool_choice.function.name }) satisfies ToolChoice }),
    ...(body.temperature != null && { temperature: body.temperature }),
    ...(maxTokens != null && { maxTokens }),
    ...(body.stop != null && { stop: typeof body.stop === 'string' ? [body.stop] : body.stop }),
  }
}

const textOf = (content: OpenAiMessage['content']) => (typeof content === 'string' ? content : (content ?? []).map((p) => p.text).join(''))

function toChatMessage(m: OpenAiMessage): ChatMessage {
  if (m.role === 'tool') return { role: 'tool', content: textOf(m.content), toolCallId: m.tool_call_id }
  if (m.role === 'assistant') {
    const toolCalls = m.tool_calls?.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }))
    return { role: 'assistant', content: textOf(m.content), ...(toolCalls?.length && { toolCalls }) }
  }
  return { role: m.role === 'developer' ? 'system' : m.role, content: textOf(m.content) }
}

function toCompletionResponse(completion: Completion, meta: CompletionMeta): z.input<typeof chatCompletionResponse> {
  const toolCalls = completion.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } }))
  return {
    ...meta,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: completion.text || (toolCalls.length ? null : ''), refusal: null, ...(toolCalls.length && { tool_calls: toolCalls }) },
        logprobs: null,
        finish_reason: completion.finishReason,
      },
    ],
    ...(completion.usage && { usage: usageOf(completion.usage) }),
    system_fingerprint: null,
  }
}

/** A vector as OpenAI's `encoding_format: base64` sends it: little-endian float32 bytes, base64. */
function float32Base64(vector: number[]) {
  const bytes = new Uint8Array(new Float32Array(vector).buffer)
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}
