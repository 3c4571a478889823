import type Anthropic from '@anthropic-ai/sdk'
import type { ContentBlockParam, MessageCreateParamsBase, MessageParam, RawMessageStreamEvent, ToolChoice as ToolChoiceParam } from '@anthropic-ai/sdk/resources/messages'
import { connectionLost, fromHttpStatus, fromUnknown, ProviderError, streamEndedEarly } from './errors'
import { postSse } from './sse'
import { ChunkEvents, TextTemplate } from './text-template'
import type { ChatMessage, ChatProvider, ChatRequest, FinishReason, ProviderConfig, ToolCall, ToolChoice, Usage } from './types'

const THINKING_BUDGET = { low: 1024, medium: 4096, high: 16_384 }
/** Anthropic requires max_tokens; this is what a reply may use when the caller sets no limit. */
const DEFAULT_MAX_TOKENS = 8192
/** Errors sent as events inside a stream carry a type but no status. */
const STATUS_OF_TYPE: Record<string, number> = { overloaded_error: 529, api_error: 500, rate_limit_error: 429 }
/** The `anthropic-version` header: the same as the installed SDK sends for the other calls. */
const API_VERSION = '2026-10-21'

/** The text of an event that carries nothing else the reader uses (see TextTemplate). */
function textOnly(value: unknown): string | undefined {
  const event = value as RawMessageStreamEvent | null
  if (!event || typeof event !== 'object' || event.type !== 'content_block_delta' || event.delta?.type !== 'text_delta') return undefined
  return typeof event.delta.text === 'string' ? event.delta.text : undefined
}

/** Anthropic's Messages API. It has no embeddings. */
export function anthropicAdapter(config: ProviderConfig): ChatProvider {
  const baseURL = (config.baseUrl ?? 'https://api.anthropic.com').replace(/\/+$/, '').replace(/\/v1$/, '')
  // Loaded and built on first use: a streamed reply does not need the SDK.
  let sdk: Anthropic | undefined
  const client = async () =>
    (sdk ??= new (await loadSdk())({
    // Passing the key (even empty) keeps the SDK from reading the environment or credential files.
    apiKey: config.apiKey ?? '',
    authToken: null,
    baseURL,
    fetch: config.fetch,
    maxRetries: 0,
    // Set, so the SDK does not refuse large non-streamed requests; the gateway's timeouts apply first.
    timeout: 10 * 60_000,
    logLevel: 'off',
    openTelemetry: false,
  }))

  function params(req: ChatRequest): MessageCreateParamsBase {
    const system = req.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n')
    const budget = req.reasoning ? THINKING_BUDGET[req.reasoning] : 0
    return {
      model: req.model,
      // The thinking budget counts against max_tokens, so it comes on top of the reply's own limit.
      max_tokens: (req.maxTokens ?? DEFAULT_MAX_TOKENS) + budget,
      messages: toAnthropic(req.messages),
      ...(system && { system }),
      ...(req.tools?.length && {
        tools: req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: { type: 'object' as const, ...t.parameters } })),
        ...(req.toolChoice && { tool_choice: anthropicToolChoice(req.toolChoice) }),
      }),
      ...(req.stop?.length && { stop_sequences: req.stop }),
      // Anthropic refuses a temperature with thinking, and above 1.
      ...(budget
        ? { thinking: { type: 'enabled' as const, budget_tokens: budget } }
        : req.temperature !== undefined && { temperature: Math.min(1, req.temperature) }),
    }
  }

  return {
    // Streams over fetch with our own SSE reader: the SDK's copies its buffer for every frame.
    async *streamChat(req) {
      const events = new ChunkEvents()
      const template = new TextTemplate('text', textOnly)
      try {
        const { headers, batches } = await postSse({
          url: `${baseURL}/v1/messages`,
          headers: { 'x-api-key': config.apiKey ?? '', 'anthropic-version': API_VERSION },
          body: JSON.stringify({ ...params(req), stream: true }),
          signal: req.signal,
          fetch: config.fetch,
          failure: httpFailure,
          // A named event that is only text is read where it stands in the chunk (the loop below reads it the same way).
          take: (event, text, start, end) => event !== null && event !== 'ping' && event !== 'error' && template.readRange(text, start, end, events),
        })
        const tools = new Map<number, ToolCall>()
        const usage: Usage = { inputTokens: 0, outputTokens: 0 }
        let finish: FinishReason | undefined
        read: for await (const batch of batches) {
          for (const message of batch) {
            // Stopped while the chunk was read: none of it.
            req.signal?.throwIfAborted()
            // As the SDK: pings and unnamed messages carry nothing; an error event ends the reply.
            if (message.event === null || message.event === 'ping' || !message.data) continue
            if (message.event === 'error') throw httpFailure(undefined, headers, message.data)
            if (template.readInto(message.data, events)) continue
            const event = JSON.parse(message.data) as RawMessageStreamEvent
            template.learn(message.data, event)
            if (event.type === 'message_start') usage.inputTokens = inputTokens(event.message.usage)
            else if (event.type === 'content_block_start') {
              const block = event.content_block
              if (block.type === 'tool_use') tools.set(event.index, { id: block.id, name: block.name, arguments: '' })
              else if (block.type === 'text' && block.text) events.delta('text', block.text)
              else if (block.type === 'thinking' && block.thinking) events.delta('reasoning', block.thinking)
            } else if (event.type === 'content_block_delta') {
              const delta = event.delta
              if (delta.type === 'text_delta') {
                if (delta.text) events.delta('text', delta.text)
              } else if (delta.type === 'thinking_delta') {
                if (delta.thinking) events.delta('reasoning', delta.thinking)
              } else if (delta.type === 'signature_delta') events.push({ type: 'reasoning_signature', signature: delta.signature })
              else if (delta.type === 'input_json_delta') {
                const call = tools.get(event.index)
                if (call) call.arguments += delta.partial_json
              }
            } else if (event.type === 'content_block_stop') {
              const call = tools.get(event.index)
              if (call) events.push({ type: 'tool_call', ...call, arguments: call.arguments.trim() || '{}' })
            } else if (event.type === 'message_delta') {
              if (event.delta.stop_reason) finish = finishReason(event.delta.stop_reason)
              usage.outputTokens = event.usage.output_tokens
              if (event.usage.input_tokens != null) usage.inputTokens = inputTokens(event.usage)
            } else if (event.type === 'message_stop') {
              if (!finish) break read
              events.push({ type: 'usage', ...usage })
              events.push({ type: 'finish', reason: finish })
              for (const e of events.take()) {
                // Stopped while an earlier event was passed on: none of the rest.
                req.signal?.throwIfAborted()
                yield e
              }
              return
            }
          }
          for (const e of events.take()) {
            // Stopped while an earlier event was passed on: none of the rest.
            req.signal?.throwIfAborted()
            yield e
          }
          await req.onChunkEnd?.()
        }
        throw streamEndedEarly()
      } catch (error) {
        // What the chunk brought before a broken or failing event is still the reply's (unless it was stopped).
        if (!req.signal?.aborted) for (const e of events.take()) yield e
        throw mapError(error)
      }
    },

    async complete(req) {
      try {
        const message = await (await client()).messages.create({ ...params(req), stream: false }, { signal: req.signal })
        const result = { text: '', reasoning: '', reasoningSignature: undefined as string | undefined, toolCalls: [] as ToolCall[] }
        for (const block of message.content) {
          if (block.type === 'text') result.text += block.text
          else if (block.type === 'thinking') {
            result.reasoning += block.thinking
            result.reasoningSignature = block.signature
          }
          else if (block.type === 'tool_use') result.toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) })
        }
        const usage = { inputTokens: inputTokens(message.usage), outputTokens: message.usage.output_tokens }
        return { ...result, usage, finishReason: finishReason(message.stop_reason ?? 'end_turn') }
      } catch (error) {
        throw mapError(error)
      }
    },

    async embed() {
      throw new ProviderError('EMBEDDINGS_NOT_SUPPORTED', { detail: 'Anthropic offers no embeddings' })
    },

    async listModels({ signal } = {}) {
      try {
        const ids: string[] = []
        for await (const model of (await client()).models.list({}, { signal })) ids.push(model.id)
        return ids
      } catch (error) {
        throw mapError(error)
      }
    },
  }
}

/**
 * System text goes to the top-level `system`; tool results become user turns. Neighbours of the
 * same role are merged, because Anthropic wants all results of one tool round in one user turn.
 */
function toAnthropic(messages: ChatMessage[]): MessageParam[] {
  const turns: Array<{ role: 'user' | 'assistant'; content: ContentBlockParam[] }> = []
  for (const message of messages) {
    if (message.role === 'system') continue
    const blocks: ContentBlockParam[] =
      message.role === 'tool'
        ? [{ type: 'tool_result', tool_use_id: message.toolCallId ?? '', content: message.content }]
        : [
            ...(message.role === 'assistant' && message.reasoningSignature
              ? [{ type: 'thinking' as const, thinking: message.reasoning ?? '', signature: message.reasoningSignature }]
              : []),
            // Anthropic refuses empty text blocks.
            ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
            ...(message.toolCalls ?? []).map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: parseArguments(c.arguments) })),
          ]
    if (!blocks.length) continue
    const role = message.role === 'assistant' ? 'assistant' : 'user'
    const last = turns.at(-1)
    if (last?.role === role) last.content.push(...blocks)
    else turns.push({ role, content: blocks })
  }
  return turns
}

/** OpenAI's `required` is Anthropic's `any`; a named function is a named `tool`. */
function anthropicToolChoice(choice: ToolChoice): ToolChoiceParam {
  if (choice === 'required') return { type: 'any' }
  if (choice === 'auto' || choice === 'none') return { type: choice }
  return { type: 'tool', name: choice.name }
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text || '{}')
  } catch {
    return {}
  }
}

type InputUsage = { [K in 'input_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens']?: number | null }

/** Cached input is input too; our usage has no separate cache figures. */
function inputTokens(usage: InputUsage) {
  return (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0)
}

function finishReason(reason: string): FinishReason {
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'length'
  if (reason === 'tool_use') return 'tool_calls'
  if (reason === 'refusal') return 'content_filter'
  return 'stop'
}

/**
 * An error answer in Anthropic's shape, `{ type: 'error', error: { type, message } }`: as an HTTP
 * answer, or as an `error` event inside the stream (no status; its type tells the kind).
 */
function httpFailure(status: number | undefined, headers: Headers | null | undefined, text: string) {
  let error: { type?: unknown; message?: unknown } | undefined
  try {
    error = JSON.parse(text)?.error
  } catch {}
  const type = typeof error?.type === 'string' ? error.type : null
  const message = typeof error?.message === 'string' ? error.message : text
  return fromHttpStatus({ status: status ?? STATUS_OF_TYPE[type ?? ''] ?? 500, headers, message, type })
}

let SDK: typeof Anthropic | undefined
const loadSdk = async () => (SDK ??= (await import('@anthropic-ai/sdk')).default)

function mapError(error: unknown): unknown {
  // The SDK's errors exist only once it was loaded.
  const Anthropic = SDK
  if (!Anthropic) return fromUnknown(error)
  if (error instanceof Anthropic.APIUserAbortError) return error
  if (error instanceof Anthropic.APIConnectionError) return connectionLost(error)
  if (error instanceof Anthropic.APIError) {
    const status = error.status ?? STATUS_OF_TYPE[error.type ?? ''] ?? 500
    return fromHttpStatus({ status, headers: error.headers, message: error.apiMessage ?? error.message, type: error.type })
  }
  return fromUnknown(error)
}
