import { AppError, type ErrorCode } from '../lib/errors'
import { OutboundError } from '../lib/outbound'

/**
 * A provider failure as our error codes see it. It is an AppError, so the app's error handler
 * answers it like any other; `detail` keeps the provider's own words for the log only.
 */
export class ProviderError extends AppError {
  readonly retryable: boolean
  readonly retryAfterMs?: number
  readonly detail?: string

  constructor(code: ErrorCode, options: { retryable?: boolean; retryAfterMs?: number; detail?: string; cause?: unknown } = {}) {
    const retryAfter = options.retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(options.retryAfterMs / 1000))
    super(code, { retryAfter })
    this.retryable = options.retryable ?? false
    this.retryAfterMs = options.retryAfterMs
    this.detail = options.detail
    if (options.cause !== undefined) this.cause = options.cause
  }
}

type HttpFailure = { status: number; headers?: Headers | null; message?: string; type?: string | null }

/** An HTTP error answer of a provider, whatever SDK saw it. */
export function fromHttpStatus({ status, headers, message = '', type }: HttpFailure): ProviderError {
  const detail = `${status}${type ? ` ${type}` : ''}: ${message}`.slice(0, 500)
  const says = (pattern: RegExp) => pattern.test(`${type ?? ''} ${message}`)
  if (status === 401 || status === 403) return new ProviderError('PROVIDER_AUTH_FAILED', { detail })
  // Providers differ in status for these (OpenAI: 429 insufficient_quota; Mistral: 400 invalid_model).
  if (status === 402 || (status < 500 && says(/insufficient_quota|billing|credit balance/i))) {
    return new ProviderError('PROVIDER_QUOTA_EXCEEDED', { detail })
  }
  if (status === 404 || (status < 500 && says(/model_not_found|invalid_model|model.*(not found|does not exist)/i))) {
    return new ProviderError('MODEL_NOT_FOUND_AT_PROVIDER', { detail })
  }
  if (status === 429) {
    return new ProviderError('PROVIDER_RATE_LIMITED', { retryable: true, retryAfterMs: retryAfterMs(headers), detail })
  }
  if (status === 408 || status >= 500) {
    return new ProviderError('PROVIDER_UNAVAILABLE', { retryable: true, retryAfterMs: retryAfterMs(headers), detail })
  }
  return new ProviderError('PROVIDER_REQUEST_REJECTED', { detail })
}

/** Reads retry-after-ms (OpenAI) or Retry-After in seconds or as an HTTP date. */
export function retryAfterMs(headers?: Headers | null): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'))
  if (headers?.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms
  const value = headers?.get('retry-after')
  if (!value) return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

/** The connection failed or broke: safe to retry only while nothing has reached the caller. */
export function connectionLost(cause: unknown): ProviderError {
  const refused = outboundRefusal(cause)
  if (refused) return refused
  return new ProviderError('PROVIDER_UNAVAILABLE', { retryable: true, detail: describe(cause), cause })
}

/** The stream ended without the provider saying the reply was complete. */
export function streamEndedEarly(): ProviderError {
  return new ProviderError('PROVIDER_STREAM_INTERRUPTED', { retryable: true, detail: 'stream ended without a finish reason' })
}

export function badResponse(cause: unknown): ProviderError {
  return new ProviderError('PROVIDER_BAD_RESPONSE', { detail: describe(cause), cause })
}

/**
 * The SDK-independent part of error mapping: broken JSON or schema → bad response; network
 * failures → connection lost. Aborts and anything else (our own bugs) pass through unchanged.
 */
export function fromUnknown(error: unknown): unknown {
  if (error instanceof ProviderError || isAbort(error)) return error
  const refused = outboundRefusal(error)
  if (refused) return refused
  const name = (error as Error | undefined)?.name ?? ''
  if (name === 'SyntaxError' || name === 'ZodError' || /ValidationError$/.test(name)) return badResponse(error)
  if (isNetworkFailure(error)) return connectionLost(error)
  return error
}

/** The guarded client (src/lib/outbound.ts) refused the request or cut it off, as cause of whatever the SDK threw. */
function outboundRefusal(error: unknown): ProviderError | undefined {
  for (let e = error as { cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (!(e instanceof OutboundError)) continue
    const detail = e.message
    if (e.reason === 'timeout') return new ProviderError('PROVIDER_TIMEOUT', { retryable: true, detail, cause: e })
    if (e.reason === 'host-not-found') return new ProviderError('PROVIDER_UNAVAILABLE', { retryable: true, detail, cause: e })
    if (e.reason === 'too-large') return new ProviderError('PROVIDER_BAD_RESPONSE', { detail, cause: e })
    return new ProviderError('PROVIDER_ADDRESS_REFUSED', { detail, cause: e })
  }
  return undefined
}

export function isAbort(error: unknown): boolean {
  const name = (error as Error | undefined)?.name
  return name === 'AbortError' || name === 'APIUserAbortError' || name === 'RequestAbortedError'
}

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET'])

function isNetworkFailure(error: unknown): boolean {
  for (let e = error as { name?: string; code?: string; message?: string; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.code && NETWORK_CODES.has(e.code)) return true
    // Bun, Node (undici) and workerd word a broken connection differently.
    if (e.name === 'TypeError' && /socket|connection|network|fetch failed|terminated/i.test(e.message ?? '')) return true
  }
  return false
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 500) : String(error).slice(0, 500)
}
