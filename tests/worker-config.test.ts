import { afterEach, expect, spyOn, test } from 'bun:test'
import type { ExecutionContext } from 'hono'
import worker from '../src/worker'

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext
const health = () => new Request('https://kontor.example/api/health')
const errors = spyOn(console, 'error').mockImplementation(() => {})
afterEach(() => errors.mockClear())

test('a Worker without a valid configuration answers 503 and logs the variable once', async () => {
  const env = { DATABASE_URL: 'libsql://db.example.turso.io', KONTOR_SECRET: 'too short' }
  for (let i = 0; i < 3; i++) {
    const res = await worker.fetch(health(), env, ctx)
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('60')
    expect(await res.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'The service is temporarily unavailable.', status: 503 })
  }
  expect(errors.mock.calls).toHaveLength(1)
  expect(String(errors.mock.calls[0]![0])).toStartWith('Invalid configuration: KONTOR_SECRET')

  // Another mistake is logged again; the secret itself never appears in the log.
  const missing = await worker.fetch(health(), { DATABASE_URL: 'libsql://db.example.turso.io' }, ctx)
  expect(missing.status).toBe(503)
  expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([
    expect.stringContaining('KONTOR_SECRET') as unknown as string,
    'Invalid configuration: KONTOR_SECRET is required',
  ])
  expect(errors.mock.calls.flat().join(' ')).not.toContain('too short')
})
