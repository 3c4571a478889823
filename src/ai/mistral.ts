import { Mistral } from '@mistralai/mistralai'
import { HTTPClient } from '@mistralai/mistralai/lib/http.js'
import type { ChatCompletionStreamRequest, ContentChunk, UsageInfo } from '@mistralai/mistralai/models/components'
import { ConnectionError, MistralError, RequestTimeoutError } from '@mistralai/mistralai/models/errors'
import { connectionLost, fromHttpStatus, fromUnknown, ProviderError, streamEndedEarly } from './errors'
import { ToolCallBuffer } from './tool-call-buffer'
import type { ChatMessage, ChatProvider, ChatRequest, FinishReason, ProviderConfig, StreamEvent, Usage } from './types'

type Messages = ChatCompletionStreamRequest['messages']

/** Mistral's own API. Its SDK posts to `<serverURL>/v1/...`, so the base URL has no /v1. */
export function mistralAdapter(config: ProviderConfig): ChatProvider {
  const client = new Mistral({
    // An empty key keeps the SDK from reading MISTRAL_API_KEY: configuration is passed in, not read.
    apiKey: config.apiKey ?? '',
    serverURL: (config.baseUrl ?? 'https://api.mistral.ai').replace(/\/+$/, '').replace(/\/v1$/, ''),
    ...(config.fetch && { httpClient: new HTTPClient({ fetcher: config.fetch }) }),
    retryConfig: { strategy: 'none' },
  })

  function params(req: ChatRequest): ChatCompletionStreamRequest {
    return {
      model: req.model,
      messages: req.messages.map(toMistral) as Messages,
      ...(req.tools?.length && {
        tools: req.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } })),
      }),
      ...(req.temperature !== undefined && { temperature: req.temperature }),
      ...(req.maxTokens !== undefined && { maxTokens: req.maxTokens }),
      ...(req.reasoning && { reasoningEffort: req.reasoning }),
    }
  }

  return {
    async *streamChat(req) {
      try {
        const stream = await client.chat.stream(params(req), { signal: req.signal })
        const calls = new ToolCallBuffer()
        let finish: FinishReason | undefined
        let usage: Usage | undefined
        for await (const { data: chunk } of stream) {
          if (chunk.usage) usage = usageOf(chunk.usage)
          const choice = chunk.choices[0]
          if (!choice) continue
          yield* contentEvents(choice.delta.content)
          for (const call of choice.delta.toolCalls ?? []) calls.add(call.index ?? 0, { id: call.id, ...call.function })
          if (choice.finishReason) finish = finishReason(choice.finishReason)
        }
        if (!finish) throw streamEndedEarly()
        for (const call of calls.complete()) yield { type: 'tool_call', ...call }
        if (usage) yield { type: 'usage', ...usage }
        yield { type: 'finish', reason: finish }
      } catch (error) {
        throw mapError(error)
      }
    },

    async complete(req) {
      try {
        const response = await client.chat.complete(params(req), { signal: req.signal })
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
        const response = await client.embeddings.create(
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
        const list = await client.models.list(undefined, { signal })
        return (list.data ?? []).flatMap((m) => ('id' in m && typeof m.id === 'string' ? [m.id] : []))
      } catch (error) {
        throw mapError(error)
      }
    },
  }
}

/** Mistral sends text as a string, or as chunks where reasoning models put their thinking. */
function* contentEvents(content: string | ContentChunk[] | null | undefined): Generator<Extract<StreamEvent, { delta: string }>> {
  if (typeof content === 'string') {
    if (content) yield { type: 'text', delta: content }
    return
  }
  for (const chunk of content ?? []) {
    if (chunk.type === 'text' && chunk.text) yield { type: 'text', delta: chunk.text }
    if (chunk.type === 'thinking') {
      for (const part of chunk.thinking) if (part.type === 'text' && part.text) yield { type: 'reasoning', delta: part.text }
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

function mapError(error: unknown): unknown {
  if (error instanceof MistralError) {
    let body: { message?: unknown; type?: unknown } = {}
    try {
      body = JSON.parse(error.body)
    } catch {}
    const message = typeof body.message === 'string' ? body.message : error.body
    return fromHttpStatus({ status: error.statusCode, headers: error.headers, message, type: typeof body.type === 'string' ? body.type : null })
  }
  if (error instanceof ConnectionError || error instanceof RequestTimeoutError) return connectionLost(error)
  return fromUnknown(error)
}
