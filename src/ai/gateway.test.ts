import { expect, test } from 'bun:test'
import { sleep } from './attempt'
import { ProviderError } from './errors'
import { withGatewayPolicy } from './gateway'
import type { ChatProvider, ChatRequest, StreamEvent } from './types'

/** An adapter that replays `script` per attempt; each entry is events then an optional error. */
function stubAdapter(script: Array<{ events: StreamEvent[]; error?: unknown }>) {
  let attempts = 0
  const adapter: ChatProvider = {
    async *streamChat() {
      const { events, error } = script[Math.min(attempts++, script.length - 1)]!
      for (const event of events) yield event
      if (error) throw error
    },
    complete: () => Promise.reject(new Error('unused')),
    embed: () => Promise.reject(new Error('unused')),
    listModels: async () => [],
  }
  return { adapter, attempts: () => attempts }
}

const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] }
const text = (delta: string): StreamEvent => ({ type: 'text', delta })
const done: StreamEvent = { type: 'finish', reason: 'stop' }
const retry = { baseDelayMs: 1, maxDelayMs: 50 }

test('the idle watchdog measures the provider, not a slow consumer', async () => {
  const { adapter } = stubAdapter([{ events: [text('a'), text('b'), done] }])
  const provider = withGatewayPolicy(adapter, { timeouts: { idleMs: 20, firstTokenMs: 20 } })
  const seen: StreamEvent[] = []
  for await (const event of provider.streamChat(request)) {
    seen.push(event)
    await new Promise((resolve) => setTimeout(resolve, 60))
  }
  expect(seen).toEqual([text('a'), text('b'), done])
})

test('a transient failure after the first event is an interruption and is not retried', async () => {
  const { adapter, attempts } = stubAdapter([{ events: [text('a')], error: new ProviderError('PROVIDER_UNAVAILABLE', { retryable: true }) }])
  const seen: StreamEvent[] = []
  const error = await (async () => {
    for await (const event of withGatewayPolicy(adapter, { retry }).streamChat(request)) seen.push(event)
  })().catch((e: unknown) => e)
  expect(error).toMatchObject({ code: 'PROVIDER_STREAM_INTERRUPTED', retryable: false })
  expect(seen).toEqual([text('a')])
  expect(attempts()).toBe(1)
})

test('a retryable failure before the first event is retried, then succeeds', async () => {
  const { adapter, attempts } = stubAdapter([
    { events: [], error: new ProviderError('PROVIDER_UNAVAILABLE', { retryable: true }) },
    { events: [text('ok'), done] },
  ])
  const seen: StreamEvent[] = []
  for await (const event of withGatewayPolicy(adapter, { retry }).streamChat(request)) seen.push(event)
  expect(seen).toEqual([text('ok'), done])
  expect(attempts()).toBe(2)
})

test('an already aborted signal throws its reason without calling the provider', async () => {
  const { adapter, attempts } = stubAdapter([{ events: [done] }])
  const signal = AbortSignal.abort(new Error('gone'))
  const error = await (async () => {
    for await (const _ of withGatewayPolicy(adapter).streamChat({ ...request, signal })) void _
  })().catch((e: Error) => e)
  expect(error?.message).toBe('gone')
  expect(attempts()).toBe(0)
})

test('an abort during the back-off ends the wait at once', async () => {
  // A back-off longer than the test's own time limit: only an abort that ends it lets the test pass.
  const { adapter, attempts } = stubAdapter([{ events: [], error: new ProviderError('PROVIDER_RATE_LIMITED', { retryable: true, retryAfterMs: 120_000 }) }])
  const controller = new AbortController()
  setTimeout(() => controller.abort(), 30)
  const error = await (async () => {
    const provider = withGatewayPolicy(adapter, { retry: { maxDelayMs: 300_000 } })
    for await (const _ of provider.streamChat({ ...request, signal: controller.signal })) void _
  })().catch((e: Error) => e)
  expect(error?.name).toBe('AbortError')
  expect(attempts()).toBe(1)
})

test('the idle limit applies from the last event, even when the first-token allowance is much longer', async () => {
  const adapter: ChatProvider = {
    async *streamChat(req) {
      yield text('a')
      await sleep(3000, req.signal) // silent far beyond the idle limit, far short of the first-token one
      yield text('b')
      yield done
    },
    complete: () => Promise.reject(new Error('unused')),
    embed: () => Promise.reject(new Error('unused')),
    listModels: async () => [],
  }
  const provider = withGatewayPolicy(adapter, { timeouts: { firstTokenMs: 60_000, idleMs: 30 } })
  const seen: StreamEvent[] = []
  const error = await (async () => {
    for await (const event of provider.streamChat(request)) seen.push(event)
  })().catch((e: unknown) => e)
  expect(error).toMatchObject({ code: 'PROVIDER_TIMEOUT', detail: 'no answer within 30 ms' })
  expect(seen).toEqual([text('a')])
})
