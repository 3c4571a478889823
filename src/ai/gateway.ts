import { Attempt, sleep } from './attempt'
import { ProviderError } from './errors'
import type { ChatProvider, ChatRequest, RetryPolicy, StreamEvent, Timeouts } from './types'

export const DEFAULT_TIMEOUTS: Timeouts = { firstTokenMs: 60_000, idleMs: 30_000, requestMs: 120_000 }
export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 10_000 }

/**
 * Wraps an adapter (which only translates) in the one policy every provider gets: timeouts,
 * aborts, and retries of transient failures. The SDKs' own retries are off, so this is the only
 * place that decides.
 */
export function withGatewayPolicy(
  adapter: ChatProvider,
  options: { timeouts?: Partial<Timeouts>; retry?: Partial<RetryPolicy> } = {},
): ChatProvider {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
  const retry = { ...DEFAULT_RETRY, ...options.retry }

  /** Runs a one-shot call, retrying while the policy allows. */
  async function once<T>(signal: AbortSignal | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted()
      const call = new Attempt(signal)
      let failure: unknown
      try {
        call.arm(timeouts.requestMs)
        return await run(call.signal)
      } catch (error) {
        failure = call.failure(error)
      } finally {
        call.end()
      }
      await waitBeforeRetry(failure, attempt, signal)
    }
  }

  async function* streamChat(req: ChatRequest): AsyncGenerator<StreamEvent> {
    for (let attempt = 0; ; attempt++) {
      req.signal?.throwIfAborted()
      const call = new Attempt(req.signal)
      const events = adapter.streamChat({ ...req, signal: call.signal })[Symbol.asyncIterator]()
      let yielded = false
      let failure: unknown
      try {
        call.arm(timeouts.firstTokenMs)
        for (;;) {
          let next: IteratorResult<StreamEvent>
          try {
            next = await events.next()
          } catch (error) {
            failure = call.failure(error)
            break
          }
          if (next.done) return
          // The watchdog measures the provider, not a slow consumer.
          call.disarm()
          yielded = true
          yield next.value
          call.arm(timeouts.idleMs)
        }
      } finally {
        call.end()
        // Runs the adapter's own clean-up when the consumer stopped early; harmless once it ended.
        await events.return?.(undefined).catch(() => undefined)
      }
      if (yielded) throw afterFirstEvent(failure)
      await waitBeforeRetry(failure, attempt, req.signal)
    }
  }

  /** Throws `failure` unless it may be retried; otherwise waits the back-off. */
  async function waitBeforeRetry(failure: unknown, attempt: number, signal: AbortSignal | undefined) {
    if (!(failure instanceof ProviderError) || !failure.retryable || attempt >= retry.maxRetries) throw failure
    const backoff = retry.baseDelayMs * 2 ** attempt * (0.75 + Math.random() * 0.5)
    const delay = failure.retryAfterMs ?? Math.min(backoff, retry.maxDelayMs)
    // Waiting less than the provider asked for would only be refused again.
    if (delay > retry.maxDelayMs) throw failure
    await sleep(delay, signal)
  }

  return {
    streamChat,
    complete: (req) => once(req.signal, (signal) => adapter.complete({ ...req, signal })),
    embed: (req) => once(req.signal, (signal) => adapter.embed({ ...req, signal })),
    listModels: (opts = {}) => once(opts.signal, (signal) => adapter.listModels({ signal })),
  }
}

/**
 * Once part of a reply has reached the caller, a retry would repeat it, so nothing is retried
 * and a transient failure is reported as the interruption it is.
 */
function afterFirstEvent(failure: unknown): unknown {
  if (!(failure instanceof ProviderError)) return failure
  if (!['PROVIDER_UNAVAILABLE', 'PROVIDER_RATE_LIMITED', 'PROVIDER_STREAM_INTERRUPTED'].includes(failure.code)) return failure
  return new ProviderError('PROVIDER_STREAM_INTERRUPTED', { detail: failure.detail, cause: failure })
}
