import { fromUnknown, ProviderError } from './errors'

/**
 * One try at a provider call: its own abort controller, tied to the caller's signal and to a
 * watchdog. Aborting is the only way to stop an SDK call that waits on a silent provider, and it
 * closes the upstream connection so the provider stops generating.
 */
export class Attempt {
  private readonly controller = new AbortController()
  private timer: ReturnType<typeof setTimeout> | undefined
  /** When the timer fires (performance.now() time). */
  private timerDue = 0
  /** Whether the call waits for the provider now, since when, and for how long it may. */
  private waiting = false
  private waitingSince = 0
  private limitMs = 0
  private timedOutAfterMs: number | undefined
  readonly signal: AbortSignal

  constructor(private readonly callerSignal?: AbortSignal) {
    this.signal = callerSignal ? AbortSignal.any([callerSignal, this.controller.signal]) : this.controller.signal
  }

  /**
   * Aborts the call unless `disarm` or another `arm` comes within `ms`. Called for every event of
   * a stream, so it only notes the time: the one timer re-checks when it fires instead of being
   * replaced each time.
   */
  arm(ms: number) {
    const now = performance.now()
    this.waiting = true
    this.waitingSince = now
    this.limitMs = ms
    if (this.timer === undefined || this.timerDue > now + ms) this.schedule(ms)
  }

  disarm() {
    this.waiting = false
  }

  private schedule(ms: number) {
    clearTimeout(this.timer)
    this.timerDue = performance.now() + ms
    this.timer = setTimeout(() => this.check(), ms)
  }

  private check() {
    this.timer = undefined
    // Not waiting for the provider (the consumer holds an event): the next `arm` starts a timer.
    if (!this.waiting) return
    const waited = performance.now() - this.waitingSince
    if (waited < this.limitMs) return this.schedule(this.limitMs - waited)
    this.timedOutAfterMs = this.limitMs
    this.controller.abort()
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
    clearTimeout(this.timer)
    this.timer = undefined
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
