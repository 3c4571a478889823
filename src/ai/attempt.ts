import { fromUnknown, ProviderError } from './errors'

/**
 * One try at a provider call: its own abort controller, tied to the caller's signal and to a
 * watchdog. Aborting is the only way to stop an SDK call that waits on a silent provider, and it
 * closes the upstream connection so the provider stops generating.
 */
export class Attempt {
  private readonly controller = new AbortController()
  private timer: ReturnType<typeof setTimeout> | undefined
  private timedOutAfterMs: number | undefined
  readonly signal: AbortSignal

  constructor(private readonly callerSignal?: AbortSignal) {
    this.signal = callerSignal ? AbortSignal.any([callerSignal, this.controller.signal]) : this.controller.signal
  }

  /** Aborts the call unless `disarm` or another `arm` comes within `ms`. */
  arm(ms: number) {
    this.disarm()
    this.timer = setTimeout(() => {
      this.timedOutAfterMs = ms
      this.controller.abort()
    }, ms)
  }

  disarm() {
    clearTimeout(this.timer)
  }

  /**
   * What the caller should see for an error (or an early end) of this attempt. After an abort
   * the SDKs report anything from a silent end to a connection error, so the cause is read from
   * our own state first.
   */
  failure(error: unknown): unknown {
    if (this.callerSignal?.aborted) return this.callerSignal.reason
    if (this.timedOutAfterMs !== undefined) {
      return new ProviderError('PROVIDER_TIMEOUT', { detail: `no answer within ${this.timedOutAfterMs} ms`, cause: error })
    }
    return fromUnknown(error)
  }

  /** Stops the watchdog and closes the upstream request if it is still open. */
  end() {
    this.disarm()
    this.controller.abort()
  }
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
