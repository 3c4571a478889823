import type { ChatProvider, ChatRequest, FinishReason, StreamEvent, Usage } from '../../ai'
import { KEEP_ALIVE_MS, keepAlive } from '../../lib/keep-alive'
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
 * How long a streamed completion waits for the provider's first event before it answers without
 * it (decision 0125): a refusal that comes sooner keeps its HTTP status; a model that thinks longer
 * gets its answer started.
 */
export const FIRST_EVENT_WAIT_MS = 10_000
const LATE = Symbol('late')

/**
 * A streamed completion in OpenAI's chunk format: a first chunk with the role, one chunk per text
 * delta and per tool call, one with the finish reason, with `include_usage` one with the usage and
 * no choices, then `data: [DONE]`. The provider's first event is awaited before answering (for up
 * to `firstEventWaitMs`), so a request that fails at once (a refused key, an unknown model) gets
 * its HTTP status; a failure later becomes an error chunk, as OpenAI sends one, and the stream
 * ends without [DONE]. A first event that takes longer is waited for in the stream. A comment
 * goes out after each period of `keepAliveMs` in which nothing else did (waiting for the first
 * event, or a model's reasoning, which this API does not pass on).
 */
export async function streamCompletion(
  provider: ChatProvider,
  request: ChatRequest,
  meta: CompletionMeta,
  options: { includeUsage: boolean; signal: AbortSignal; logger: Logger; onEnd?: () => Promise<void>; firstEventWaitMs?: number; keepAliveMs?: number },
): Promise<Response> {
  const { firstEventWaitMs = FIRST_EVENT_WAIT_MS, keepAliveMs = KEEP_ALIVE_MS } = options
  const abort = new AbortController()
  const onAbort = () => abort.abort(options.signal.reason)
  options.signal.addEventListener('abort', onAbort, { once: true })
  const events = provider.streamChat({ ...request, signal: abort.signal })[Symbol.asyncIterator]()
  const firstRead = events.next()
  // Read later in the stream when late; a failure meanwhile is not left unhandled.
  firstRead.catch(() => {})
  let first: IteratorResult<StreamEvent> | typeof LATE
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    first = await Promise.race([firstRead, new Promise<typeof LATE>((resolve) => (timer = setTimeout(resolve, firstEventWaitMs, LATE)))])
  } catch (error) {
    options.signal.removeEventListener('abort', onAbort)
    throw error
  } finally {
    clearTimeout(timer)
  }
  /** The provider's first event, while the answer has started without it. */
  let late = first === LATE ? firstRead : undefined

  const chunk = (choice: { delta: Record<string, unknown>; finish_reason: FinishReason | null } | null, usage?: Usage) => ({
    ...meta,
    object: 'chat.completion.chunk',
    system_fingerprint: null,
    choices: choice ? [{ index: 0, delta: choice.delta, logprobs: null, finish_reason: choice.finish_reason }] : [],
    ...(options.includeUsage && { usage: usage ? usageOf(usage) : null }),
  })
  let pending: IteratorResult<StreamEvent> | undefined = first === LATE ? undefined : first
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
  let alive: ReturnType<typeof keepAlive> | undefined
  const finish = () => {
    alive?.stop()
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
          alive = keepAlive(controller, keepAliveMs)
          alive.wrote()
          // Late: the headers and the first chunk leave now.
          if (late) return
        }
        if (late) {
          pending = await late // its failure is the stream's (catch below)
          late = undefined
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
          if (frames.length) {
            alive!.wrote()
            return
          }
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
      alive?.stop()
      abort.abort()
      await events.return?.(undefined).catch(() => undefined)
      finish()
    },
  })
  return new Response(stream, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } })
}
