import type OpenAI from 'openai'
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions'
import { connectionLost, fromHttpStatus, fromUnknown, ProviderError } from './errors'
import { postSse } from './sse'
import { ChunkEvents, TextTemplate } from './text-template'
import { streamEnd, ToolCallBuffer } from './tool-call-buffer'
import type { ChatMessage, ChatProvider, ChatRequest, FinishReason, ProviderConfig, StreamEvent, Usage } from './types'

/** Reasoning text as compatible servers send it: vLLM and llama.cpp say reasoning_content, Ollama says reasoning. */
type WithReasoning = { reasoning_content?: string | null; reasoning?: string | null }

type WireChunk = ChatCompletionChunk & { error?: { message?: string; type?: string; code?: string } }

/** The text of a chunk that carries nothing else the reader uses (see TextTemplate). */
function textOnly(value: unknown): string | undefined {
  const chunk = value as WireChunk | null
  if (!chunk || typeof chunk !== 'object' || chunk.error || chunk.usage) return undefined
  const choice = chunk.choices?.[0]
  if (!choice || choice.finish_reason) return undefined
  const delta = choice.delta as (ChatCompletionChunk.Choice.Delta & WithReasoning) | undefined
  if (!delta || delta.reasoning_content || delta.reasoning || delta.tool_calls?.length) return undefined
  return typeof delta.content === 'string' ? delta.content : undefined
}

/** OpenAI, and self-hosted OpenAI-compatible servers (Ollama, vLLM, llama.cpp server). */
export function openaiAdapter(config: ProviderConfig): ChatProvider {
  const compatible = config.kind === 'openai-compatible'
  const baseURL = compatible ? compatibleBaseUrl(config.baseUrl) : (config.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '')
  // Loaded and built on first use: a streamed reply does not need the SDK, and loading it costs memory and start time.
  let sdk: OpenAI | undefined
  const client = async () =>
    (sdk ??= new (await loadSdk())({
    // Self-hosted servers often need no key; then no Authorization header is sent at all.
    apiKey: config.apiKey || 'none',
    defaultHeaders: config.apiKey ? undefined : { Authorization: null },
    baseURL,
    fetch: config.fetch,
    maxRetries: 0,
    organization: null,
    project: null,
    logLevel: 'off',
  }))

  function params(req: ChatRequest): ChatCompletionCreateParamsBase {
    return {
      model: req.model,
      messages: req.messages.map(toOpenAI),
      ...(req.tools?.length && {
        tools: req.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } })),
      }),
      ...(req.toolChoice && {
        tool_choice: typeof req.toolChoice === 'string' ? req.toolChoice : { type: 'function' as const, function: { name: req.toolChoice.name } },
      }),
      ...(req.stop?.length && { stop: req.stop }),
      ...(req.temperature !== undefined && { temperature: req.temperature }),
      // OpenAI's reasoning models refuse max_tokens; many compatible servers only know it.
      ...(req.maxTokens !== undefined && (compatible ? { max_tokens: req.maxTokens } : { max_completion_tokens: req.maxTokens })),
      ...(req.reasoning && !compatible && { reasoning_effort: req.reasoning }),
    }
  }

  return {
    // Streams over fetch with our own SSE reader: the SDK's stream parser copies its whole
    // buffer for every frame, which dominated the cost of a long reply.
    async *streamChat(req) {
      const events = new ChunkEvents()
      // OpenAI pads each event with random characters (`obfuscation`), which the template skips.
      const template = new TextTemplate('content', textOnly, ['obfuscation'])
      let done = false
      try {
        const { batches } = await postSse({
          url: `${baseURL}/chat/completions`,
          // Self-hosted servers often need no key; then no Authorization header is sent at all.
          headers: config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {},
          body: JSON.stringify({ ...params(req), stream: true, stream_options: { include_usage: true } }),
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
            // Whatever follows [DONE] is ignored, as the SDK does.
            if (done || (done = message.data.startsWith('[DONE]'))) continue
            if (template.readInto(message.data, events)) continue
            const chunk = JSON.parse(message.data) as WireChunk
            template.learn(message.data, chunk)
            if (chunk?.error) throw streamError(chunk.error)
            if (chunk.usage) usage = usageOf(chunk.usage)
            const choice = chunk.choices?.[0]
            if (!choice) continue
            const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & WithReasoning
            const reasoning = delta.reasoning_content ?? delta.reasoning
            if (reasoning) events.delta('reasoning', reasoning)
            if (delta.content) events.delta('text', delta.content)
            for (const call of delta.tool_calls ?? []) calls.add(call.index, { id: call.id, ...call.function })
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
        const response = await (await client()).chat.completions.create({ ...params(req), stream: false }, { signal: req.signal })
        const choice = response.choices[0]
        if (!choice) throw new ProviderError('PROVIDER_BAD_RESPONSE', { detail: 'no choices' })
        const message = choice.message as ChatCompletionMessage & WithReasoning
        const calls = new ToolCallBuffer()
        for (const [index, call] of (message.tool_calls ?? []).entries()) {
          if (call.type === 'function') calls.add(index, { id: call.id, ...call.function })
        }
        return {
          text: message.content ?? '',
          reasoning: message.reasoning_content ?? message.reasoning ?? '',
          toolCalls: calls.complete(),
          usage: response.usage && usageOf(response.usage),
          finishReason: finishReason(choice.finish_reason),
        }
      } catch (error) {
        throw mapError(error)
      }
    },

    async embed(req) {
      try {
        const response = await (await client()).embeddings.create(
          // Ollama and llama.cpp do not speak the SDK's default base64 encoding.
          { model: req.model, input: req.input, encoding_format: 'float', ...(req.dimensions && { dimensions: req.dimensions }) },
          { signal: req.signal },
        )
        const vectors = [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding)
        return { vectors, usage: response.usage && { inputTokens: response.usage.prompt_tokens } }
      } catch (error) {
        throw mapError(error)
      }
    },

    async listModels({ signal } = {}) {
      try {
        const ids: string[] = []
        for await (const model of (await client()).models.list({ signal })) ids.push(model.id)
        return ids
      } catch (error) {
        throw mapError(error)
      }
    },
  }
}

/** `http://host:11434` and `http://host:11434/v1` both mean the server's OpenAI-compatible API. */
export function compatibleBaseUrl(baseUrl: string | undefined): string {
  if (!baseUrl) throw new Error('an openai-compatible provider needs a baseUrl')
  const url = new URL(baseUrl)
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1'
  return url.toString().replace(/\/+$/, '')
}

function toOpenAI(message: ChatMessage): ChatCompletionMessageParam {
  if (message.role === 'tool') return { role: 'tool', content: message.content, tool_call_id: message.toolCallId ?? '' }
  if (message.role !== 'assistant') return { role: message.role, content: message.content }
  const toolCalls = message.toolCalls?.map((c) => ({
    id: c.id,
    type: 'function' as const,
    function: { name: c.name, arguments: c.arguments },
  }))
  return { role: 'assistant', content: message.content || null, ...(toolCalls?.length && { tool_calls: toolCalls }) }
}

function finishReason(reason: string): FinishReason {
  if (reason === 'length') return 'length'
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool_calls'
  if (reason === 'content_filter') return 'content_filter'
  return 'stop'
}

function usageOf(usage: { prompt_tokens: number; completion_tokens: number }): Usage {
  return { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens }
}

/** An error answer in OpenAI's shape, `{ error: { message, type, code } }`, as the SDK reads it. */
function httpFailure(status: number, headers: Headers, body: string) {
  let error: { message?: unknown; type?: unknown; code?: unknown } | undefined
  try {
    error = JSON.parse(body)?.error
  } catch {}
  const message = typeof error?.message === 'string' ? error.message : body
  const type = [error?.type, error?.code].filter((x) => typeof x === 'string' && x).join(' ')
  return fromHttpStatus({ status, headers, message, type })
}

/** An error sent inside the stream has no status; its cause is unknown, so it is not retried. */
function streamError(error: { message?: string; type?: string; code?: string }) {
  const type = [error.type, error.code].filter(Boolean).join(' ')
  return new ProviderError('PROVIDER_UNAVAILABLE', { detail: `${type}: ${error.message ?? ''}`.slice(0, 500) })
}

let SDK: typeof OpenAI | undefined
const loadSdk = async () => (SDK ??= (await import('openai')).default)

function mapError(error: unknown): unknown {
  // The SDK's errors exist only once it was loaded.
  const OpenAI = SDK
  if (!OpenAI) return fromUnknown(error)
  if (error instanceof OpenAI.APIUserAbortError) return error
  if (error instanceof OpenAI.APIConnectionError) return connectionLost(error)
  if (error instanceof OpenAI.APIError) {
    const type = [error.type, error.code].filter(Boolean).join(' ')
    // An error event inside the stream has no status; its cause is unknown, so it is not retried.
    if (error.status === undefined) return new ProviderError('PROVIDER_UNAVAILABLE', { detail: `${type}: ${error.message}` })
    return fromHttpStatus({ status: error.status, headers: error.headers, message: error.message, type })
  }
  return fromUnknown(error)
}
