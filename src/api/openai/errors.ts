import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { describeDatabaseError, isDatabaseUnavailable } from '../../lib/database-errors'
import { AppError, ERRORS, type ErrorCode } from '../../lib/errors'
import type { Logger } from '../../lib/logger'

export type OpenAiError = { message: string; type: string; code: string | null; param: string | null }

/** How Kontor's codes read in OpenAI's error vocabulary (type, code); the status stays Kontor's. */
const VOCABULARY: Partial<Record<ErrorCode, [type: string, code: string | null]>> = {
  INVALID_API_KEY: ['invalid_request_error', 'invalid_api_key'],
  API_ACCESS_DISABLED: ['permission_error', 'api_access_disabled'],
  SUBSCRIPTION_REQUIRED: ['insufficient_quota', 'subscription_required'],
  BUDGET_EXCEEDED: ['insufficient_quota', 'budget_exceeded'],
  MODEL_NOT_FOUND: ['invalid_request_error', 'model_not_found'],
  VALIDATION_FAILED: ['invalid_request_error', 'invalid_value'],
  INVALID_JSON: ['invalid_request_error', null],
  BAD_REQUEST: ['invalid_request_error', null],
  NOT_FOUND: ['invalid_request_error', 'unknown_url'],
  METHOD_NOT_ALLOWED: ['invalid_request_error', 'method_not_allowed'],
  PAYLOAD_TOO_LARGE: ['invalid_request_error', 'request_too_large'],
  TOO_MANY_REQUESTS: ['requests', 'rate_limit_exceeded'],
  PROVIDER_RATE_LIMITED: ['requests', 'rate_limit_exceeded'],
  EMBEDDINGS_NOT_SUPPORTED: ['invalid_request_error', 'model_not_supported'],
  INTERNAL_ERROR: ['server_error', null],
}

/** An error of the OpenAI-compatible API: a Kontor code, with the parameter it is about. */
export class ApiError extends AppError {
  constructor(
    code: ErrorCode,
    readonly param: string | null = null,
    options: { message?: string; retryAfter?: number } = {},
  ) {
    super(code, options)
  }
}

/** `messages.0.content` as OpenAI names parameters: `messages[0].content`. */
export const paramName = (path: string) => path.replace(/\.(\d+)(?=\.|$)/g, '[$1]')

/** Any error thrown while answering an API call, as OpenAI's `{ error: { message, type, code, param } }` with its status. */
export function toOpenAiError(error: unknown, logger: Logger): { status: ContentfulStatusCode; body: { error: OpenAiError }; retryAfter?: number } {
  if (!(error instanceof AppError) && isDatabaseUnavailable(error)) {
    logger.error('database unreachable', { error: describeDatabaseError(error) })
    error = new AppError('SERVICE_UNAVAILABLE', { retryAfter: 5 })
  }
  if (error instanceof HTTPException && error.status < 500) {
    error = new AppError(error.status === 413 ? 'PAYLOAD_TOO_LARGE' : error.status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST')
  }
  if (!(error instanceof AppError)) {
    logger.error('unhandled error', { error })
    error = new AppError('INTERNAL_ERROR')
  }
  const e = error as AppError
  const [type, code] = VOCABULARY[e.code] ?? [e.status >= 500 ? 'api_error' : 'invalid_request_error', e.code.toLowerCase()]
  const fields = e.fields ? Object.entries(e.fields) : []
  const param = e instanceof ApiError ? e.param : fields.length ? paramName(fields[0]![0]) : null
  const message = fields.length ? `Invalid '${param}': ${fields[0]![1]}` : e.message || ERRORS[e.code][1]
  return { status: e.status, body: { error: { message, type, code, param } }, retryAfter: e.retryAfter }
}
