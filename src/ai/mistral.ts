import type { Mistral } from '@mistralai/mistralai'
import { SDK_METADATA } from '@mistralai/mistralai/lib/config.js'
import type { ChatCompletionStreamRequest, ContentChunk, UsageInfo } from '@mistralai/mistralai/models/components'
import { connectionLost, fromHttpStatus, fromUnknown, ProviderError } from './errors'
import { postSse } from './sse'
import { ChunkEvents, TextTemplate } from './text-template'
import { streamEnd, ToolCallBuffer } from './tool-call-buffer'
import type { ChatMessage, ChatProvider, ChatRequest, FinishReason, ProviderConfig, StreamEvent, Usage } from './types'

type Messages = ChatCompletionStreamRequest['messages']

/** A streamed chunk as Mistral sends it (snake_case; the SDK's types are its camelCase translation). */
type WireChunk = {
  object?: string
  error?: unknown
  message?: unknown
  type?: unknown
  choices: Array<{
    delta?: {
      content?: string | WireContent[] | null
      tool_calls?: Array<{ id?: string | null; index?: number; function: { name?: string; arguments?: string | Record<string, unknown> } }> | null
    }
    finish_reason?: string | null
  }>
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null
}
type WireContent = { type: string; text?: string; thinking?: Array<{ type: string; text?: string }> }

/** The text of a chunk that carries nothing else the reader uses (see TextTemplate). */
function textOnly(value: unknown): string | undefined {
  const chunk = value as WireChunk | null
  if (!chunk || typeof chunk !== 'object' || chunk.object === 'error' || chunk.error || chunk.usage || !Array.isArray(chunk.choices)) return undefined
  const choice = chunk.choices[0]
  if (!choice || choice.finish_reason || choice.delta?.tool_calls?.length) return undefined
  const content = choice.delta?.content
  return typeof content === 'string' ? content : undefined
}

/** Mistral's own API. Its SDK posts to `<serverURL>/v1/...`, so the base URL has no /v1. */
export function mistralAdapter(config: ProviderConfig): ChatProvider {
  const serverURL = (config.baseUrl ?? 'https://api.mistral.ai').replace(/\/+$/, '').replace(/\/v1$/, '')
  // Loaded and built on first use: a streamed reply does not need the SDK (its models alone take tens of MB).
  let sdk: Mistral | undefined
  const client = async () => {
    const { Mistral, HTTPClient } = await loadSdk()
    return (sdk ??= new Mistral({
      // An empty key keeps the SDK from reading MISTRAL_API_KEY: configuration is passed in, not read.
      apiKey: config.apiKey ?? '',
      serverURL,
      ...(config.fetch && { httpClient: new HTTPClient({ fetcher: config.fetch }) }),
      retryConfig: { strategy: 'none' },
    }))
  }

  function params(req: ChatRequest): ChatCompletionStreamRequest {
    return {
      model: req.model,
      messages: req.messages.map(toMistral) as Messages,
      ...(req.tools?.length && {
        tools: req.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } })),
      }),
      ...(req.toolChoice && {
        toolChoice: typeof req.toolChoice === 'string' ? req.toolChoice : { type: 'function' as const, function: { name: req.toolChoice.name } },
      }),
      ...(req.stop?.length && { stop: req.stop }),
      ...(req.temperature !== undefined && { temperature: req.temperature }),
      ...(req.maxTokens !== undefined && { maxTokens: req.maxTokens }),
      ...(req.reasoning && { reasoningEffort: req.reasoning }),
    }
  }

  return {
    // Streams over fetch with our own SSE reader (the SDK's copies its buffer for every frame);
    // the body is still the SDK's own serialisation of the request.
    async *streamChat(req) {
      const events = new ChunkEvents()
      const template = new TextTemplate('content', textOnly)
      let done = false
      try {
        const { batches } = await postSse({
          url: `${serverURL}/v1/chat/completions`,
          headers: { authorization: `Bearer ${config.apiKey ?? ''}`, 'user-agent': SDK_METADATA.userAgent },
          body: wireBody(req),
          signal: req.signal,
          fetch: config.fetch,
          failure: httpFailure,
          // An event that is only text is read where it stands in the chunk (the loop below reads it the same way).
          take: (_event, text, start, end) => !done && template.readRange(text, start, end, events),
        })
        const calls = new ToolCallBuffer()
        let finish: FinishReason | undefined
        let usage: Usage | undefined
        for await (const batch of batches) {
          for (const message of batch) {
            // Stopped while the chunk was read: none of it.
            req.signal?.throwIfAborted()
            if (done || (done = message.data === '[DONE]')) continue
            if (template.readInto(message.data, events)) continue
            const chunk = JSON.parse(message.data) as WireChunk
            template.learn(message.data, chunk)
            if (chunk?.object === 'error' || chunk?.error) throw streamError(chunk)
            if (!Array.isArray(chunk?.choices)) throw new ProviderError('PROVIDER_BAD_RESPONSE', { detail: 'a chunk without choices' })
            if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 }
            const choice = chunk.choices[0]
            if (!choice) continue
            for (const e of contentEvents(choice.delta?.content)) events.delta(e.type, e.delta)
            for (const call of choice.delta?.tool_calls ?? []) calls.add(call.index ?? 0, { id: call.id, ...call.function })
            if (choice.finish_reason) finish = finishReason(choice.finish_reason)
          }
          for (const e of events.take()) {
            // Stopped while an earlier event was passed on: none of the rest.
            req.signal?.throwIfAborted()
            yield e
          }
          await req.onChunkEnd?.()
        }
        // A stop after the last chunk ends the reply stopped, not finished.
        req.signal?.throwIfAborted()
        yield* streamEnd(finish, calls, usage)
      } catch (error) {
        // What the chunk brought before a broken or failing event is still the reply's (unless it was stopped).
        if (!req.signal?.aborted) for (const e of events.take()) yield e
        throw mapError(error)
      }
    },

    async complete(req) {
      try {
        const response = await (await client()).chat.complete(params(req), { signal: req.signal })
        const choice = response.choices[0]
        if (!choice?.message) throw new ProviderError('PROVIDER_BAD_RESPONSE', { detail: 'no message' })
        let text = ''
        let reasoning = ''
        for (const event of contentEvents(choice.message.content)) {
          if (event.type === 'text') text += event.delta
          else reasoning += event.delta
        }
        const calls = new ToolCallBuffer()
        for (const [index, call] of (choice.message.toolCalls ?? []).entries()) calls.add(index, { id: call.id, ...call.function })
        return { text, reasoning, toolCalls: calls.complete(), usage: usageOf(response.usage), finishReason: finishReason(choice.finishReason) }
      } catch (error) {
        throw mapError(error)
      }
    },

    async embed(req) {
      try {
        const response = await (await client()).embeddings.create(
          { model: req.model, inputs: req.input, ...(req.dimensions && { outputDimension: req.dimensions }) },
          { signal: req.signal },
        )
        const data = [...response.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
        if (data.some((d) => !d.embedding)) throw new ProviderError('PROVIDER_BAD_RESPONSE', { detail: 'embedding missing' })
        return { vectors: data.map((d) => d.embedding ?? []), usage: { inputTokens: response.usage.promptTokens ?? 0 } }
      } catch (error) {
        throw mapError(error)
      }
    },

    async listModels({ signal } = {}) {
      try {
        const list = await (await client()).models.list(undefined, { signal })
        return (list.data ?? []).flatMap((m) => ('id' in m && typeof m.id === 'string' ? [m.id] : []))
      } catch (error) {
        throw mapError(error)
      }
    },
  }
}

/** Mistral sends text as a string, or as chunks where reasoning models put their thinking. */
function* contentEvents(content: string | ContentChunk[] | WireContent[] | null | undefined): Generator<Extract<StreamEvent, { delta: string }>> {
  if (typeof content === 'string') {
    if (content) yield { type: 'text', delta: content }
    return
  }
  for (const chunk of content ?? []) {
    if (chunk.type === 'text' && chunk.text) yield { type: 'text', delta: chunk.text }
    if (chunk.type === 'thinking') {
      for (const part of chunk.thinking ?? []) if (part.type === 'text' && part.text) yield { type: 'reasoning', delta: part.text }
    }
  }
}

function toMistral(message: ChatMessage) {
  if (message.role === 'tool') return { role: 'tool' as const, content: message.content, toolCallId: message.toolCallId }
  if (message.role !== 'assistant') return { role: message.role, content: message.content }
  const toolCalls = message.toolCalls?.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } }))
  return { role: 'assistant' as const, content: message.content, ...(toolCalls?.length && { toolCalls }) }
}

function finishReason(reason: string): FinishReason {
  if (reason === 'length' || reason === 'model_length') return 'length'
  if (reason === 'tool_calls') return 'tool_calls'
  // The provider ended the reply with its own failure flag.
  if (reason === 'error') throw new ProviderError('PROVIDER_UNAVAILABLE', { detail: 'finish_reason error' })
  return 'stop'
}

function usageOf(usage: UsageInfo): Usage {
  return { inputTokens: usage.promptTokens ?? 0, outputTokens: usage.completionTokens ?? 0 }
}

/** An error answer in Mistral's shape, `{ object: 'error', message, type }`. */
function httpFailure(status: number, headers: Headers, text: string) {
  let body: { message?: unknown; type?: unknown } = {}
  try {
    body = JSON.parse(text) ?? {}
  } catch {}
  const message = typeof body.message === 'string' ? body.message : text
  return fromHttpStatus({ status, headers, message, type: typeof body.type === 'string' ? body.type : null })
}

/** An error sent inside the stream has no status; its cause is unknown, so it is not retried. */
function streamError(chunk: { message?: unknown; type?: unknown; error?: unknown }) {
  return new ProviderError('PROVIDER_UNAVAILABLE', { detail: JSON.stringify(chunk.error ?? { type: chunk.type, message: chunk.message }).slice(0, 500) })
}

type Sdk = typeof import('@mistralai/mistralai') & typeof import('@mistralai/mistralai/lib/http.js') & typeof import('@mistralai/mistralai/models/errors')
let SDK: Sdk | undefined
const loadSdk = async () =>
  (SDK ??= { ...(await import('@mistralai/mistralai')), ...(await import('@mistralai/mistralai/lib/http.js')), ...(await import('@mistralai/mistralai/models/errors')) })

/**
 * The streamed request in Mistral's own JSON (snake_case, as the SDK would serialise `params`),
 * so that a reply loads none of the SDK.
 */
export function wireBody(req: ChatRequest): string {
  return JSON.stringify({
    model: req.model,
    messages: req.messages.map((m) => {
      if (m.role === 'tool') return { role: 'tool', content: m.content, tool_call_id: m.toolCallId }
      if (m.role !== 'assistant') return { role: m.role, content: m.content }
      const calls = m.toolCalls?.map((c, index) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments }, index }))
      return { role: 'assistant', content: m.content, ...(calls?.length && { tool_calls: calls }) }
    }),
    ...(req.tools?.length && {
      tools: req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })),
    }),
    ...(req.temperature !== undefined && { temperature: req.temperature }),
    ...(req.maxTokens !== undefined && { max_tokens: req.maxTokens }),
    ...(req.reasoning && { reasoning_effort: req.reasoning }),
    stream: true,
  })
}

function mapError(error: unknown): unknown {
  // The SDK's errors exist only once it was loaded.
  if (!SDK) return fromUnknown(error)
  const { MistralError, ConnectionError, RequestTimeoutError } = SDK
  if (error instanceof MistralError) return httpFailure(error.statusCode, error.headers, error.body)
  if (error instanceof ConnectionError || error instanceof RequestTimeoutError) return connectionLost(error)
  return fromUnknown(error)
}
