import { describe, expect, test } from 'bun:test'
import { AppError } from '../lib/errors'
import { fromHttpStatus, fromUnknown, ProviderError, retryAfterMs } from './errors'

describe('fromHttpStatus', () => {
  test.each([
    [401, '', 'PROVIDER_AUTH_FAILED', false],
    [403, '', 'PROVIDER_AUTH_FAILED', false],
    [402, '', 'PROVIDER_QUOTA_EXCEEDED', false],
    [429, 'insufficient_quota', 'PROVIDER_QUOTA_EXCEEDED', false],
    [404, '', 'MODEL_NOT_FOUND_AT_PROVIDER', false],
    [400, 'invalid_model', 'MODEL_NOT_FOUND_AT_PROVIDER', false],
    [400, 'invalid_request_error', 'PROVIDER_REQUEST_REJECTED', false],
    [413, '', 'PROVIDER_REQUEST_REJECTED', false],
    [429, 'rate_limit_exceeded', 'PROVIDER_RATE_LIMITED', true],
    [408, '', 'PROVIDER_UNAVAILABLE', true],
    [500, 'model not found in cache', 'PROVIDER_UNAVAILABLE', true],
    [529, 'overloaded_error', 'PROVIDER_UNAVAILABLE', true],
  ] as const)('%d %s → %s', (status, type, code, retryable) => {
    const error = fromHttpStatus({ status, type, message: 'provider words' })
    expect(error).toBeInstanceOf(AppError)
    expect(error).toMatchObject({ code, retryable })
    expect(error.detail).toContain('provider words')
    // The provider's words stay in the log detail; the answer carries our message.
    expect(error.message).not.toContain('provider words')
  })

  test('a rate limit carries Retry-After for the response header', () => {
    const error = fromHttpStatus({ status: 429, headers: new Headers({ 'retry-after': '7' }) })
    expect(error).toMatchObject({ status: 429, retryAfter: 7, retryAfterMs: 7000 })
    expect(error.toBody()).toEqual({ code: 'PROVIDER_RATE_LIMITED', status: 429, message: expect.any(String) })
  })
})

describe('retryAfterMs', () => {
  test('reads retry-after-ms first, then seconds, then an HTTP date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '1' }))).toBe(250)
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000)
    const inThreeSeconds = new Date(Date.now() + 3000).toUTCString()
    expect(retryAfterMs(new Headers({ 'retry-after': inThreeSeconds }))).toBeWithin(1000, 3001)
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined()
    expect(retryAfterMs(null)).toBeUndefined()
  })
})

describe('fromUnknown', () => {
  test('broken JSON is a bad response; a reset connection may be retried', () => {
    expect(fromUnknown(new SyntaxError('Unexpected end'))).toMatchObject({ code: 'PROVIDER_BAD_RESPONSE', retryable: false })
    const reset = Object.assign(new TypeError('The socket connection was closed unexpectedly'), { code: 'ECONNRESET' })
    expect(fromUnknown(reset)).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', retryable: true })
    expect(fromUnknown(new TypeError('terminated', { cause: { code: 'UND_ERR_SOCKET' } }))).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' })
  })

  test('aborts and our own bugs pass through unchanged', () => {
    const abort = new DOMException('stopped', 'AbortError')
    expect(fromUnknown(abort)).toBe(abort)
    const bug = new TypeError('x is not a function')
    expect(fromUnknown(bug)).toBe(bug)
    const mapped = new ProviderError('PROVIDER_TIMEOUT')
    expect(fromUnknown(mapped)).toBe(mapped)
  })
})
