import type { ChatProvider, ChatRequest, FinishReason, StreamEvent, Usage } from '../../ai'
import type { Logger } from '../../lib/logger'
import { toOpenAiError } from './errors'

export type CompletionMeta = { id: string; created: number; model: string }

export const usageOf = (usage: Usage) => ({
  prompt_tokens: usage.inputTokens,
  completion_tokens: usage.outputTokens,
  total_tokens: usage.inputTokens + usage.outputTokens,
})

const encoder = new TextEncoder()
const frame = (data: unknown) => encoder.encode(`data: ${JSON.stringify(data)}\n\n`)

/**
 * A streamed completion in OpenAI's chunk format: a first chunk with the role, one chunk per text
 * delta and per tool call, one with the finish reason, with `include_usage` one with the usage and
 * no choices, then `data: [DONE]`. The provider's first event is awaited before answering, so a
 * request that fails at once (a refused key, an unknown model) gets its HTTP status; a failure
 * later becomes an error chunk, as OpenAI sends one, and the stream ends without [DONE].
 */
export async function streamCompletion(
  provider: ChatProvider,
  request: ChatRequest,
  meta: CompletionMeta,
  options: { includeUsage: boolean; signal: AbortSignal; logger: Logger; onEnd?: () => Promise<void> },
): Promise<Response> {
  const abort = new AbortController()
  const onAbort = () => abort.abort(options.signal.reason)
  options.signal.addEventListener('abort', onAbort, { once: true })
  const events = provider.streamChat({ ...request, signal: abort.signal })[Symbol.asyncIterator]()
  let first: IteratorResult<StreamEvent>
  try {
    first = await events.next()
  } catch (error) {
    options.signal.removeEventListener('abort', onAbort)
    throw error
  }

  const chunk = (choice: { delta: Record<string, unknown>; finish_reason: FinishReason | null } | null, usage?: Usage) => ({
    ...meta,
    object: 'chat.completion.chunk',
    system_fingerprint: null,
    choices: choice ? [{ index: 0, delta: choice.delta, logprobs: null, finish_reason: choice.finish_reason }] : [],
    ...(options.includeUsage && { usage: usage ? usageOf(usage) : null }),
  })
  let pending: IteratorResult<StreamEvent> | undefined = first
  let usage: Usage | undefined
  let toolIndex = 0
  let started = false

  /** The frames one event becomes (none for usage, which is sent at the end). */
  const framesOf = (event: StreamEvent): Uint8Array[] => {
    if (event.type === 'text') return [frame(chunk({ delta: { content: event.delta }, finish_reason: null }))]
    if (event.type === 'tool_call') {
      const call = { index: toolIndex++, id: event.id, type: 'function', function: { name: event.name, arguments: event.arguments } }
      return [frame(chunk({ delta: { tool_calls: [call] }, finish_reason: null }))]
    }
    if (event.type === 'usage') usage = event
    if (event.type === 'finish') {
      const end = [frame(chunk({ delta: {}, finish_reason: event.reason }))]
      if (options.includeUsage) end.push(frame(chunk(null, usage ?? { inputTokens: 0, outputTokens: 0 })))
      return [...end, encoder.encode('data: [DONE]\n\n')]
    }
    return []
  }

  let ended = false
  let cancelled = false
  const finish = () => {
    options.signal.removeEventListener('abort', onAbort)
    if (!ended) void options.onEnd?.()
    ended = true
  }
  const stream = new ReadableStream<Uint8Array>({
    // Each pull enqueues at least one frame or closes: a pull that enqueued nothing would not be called again.
    async pull(controller) {
      try {
        if (!started) {
          started = true
          controller.enqueue(frame(chunk({ delta: { role: 'assistant', content: '' }, finish_reason: null })))
        }
        for (;;) {
          const next = pending ?? (await events.next())
          pending = undefined
          if (next.done) {
            finish()
            controller.close()
            return
          }
          const frames = framesOf(next.value)
          for (const f of frames) controller.enqueue(f)
          if (frames.length) return
        }
      } catch (error) {
        finish()
        if (abort.signal.aborted) {
          // Cancelled (the client left), the stream is closed already.
          if (!cancelled) controller.close()
          return
        }
        controller.enqueue(frame(toOpenAiError(error, options.logger).body))
        controller.close()
      }
    },
    // The provider's stream ends first, so that what it used is counted before the budget reservation ends (finish).
    async cancel() {
      cancelled = true
      abort.abort()
      await events.return?.(undefined).catch(() => undefined)
      finish()
    },
  })
  return new Response(stream, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } })
}
