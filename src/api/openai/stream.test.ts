/**
 * A streamed completion whose provider takes long for its first event (a reasoning model): the
 * answer starts after `firstEventWaitMs`, with keep-alive comments until the event comes.
 */
import { describe, expect, test } from 'bun:test'
import type { ChatProvider, StreamEvent } from '../../ai'
import { ProviderError } from '../../ai'
import type { Logger } from '../../lib/logger'
import { until } from '../../../tests/support/wait-for'
import { streamCompletion } from './stream'

const logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => logger } as Logger
const meta = { id: 'chatcmpl-test', created: 0, model: 'openai/gpt-4.1' }

/** A provider whose events wait for `gate`; `aborted` once the call's signal is. */
function slowProvider(gate: Promise<void>, then: StreamEvent[] | Error) {
  const seen = { aborted: false }
  const provider = {
    async *streamChat(req: { signal?: AbortSignal }) {
      req.signal?.addEventListener('abort', () => (seen.aborted = true))
      await Promise.race([gate, new Promise((_, reject) => req.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))))])
      if (then instanceof Error) throw then
      yield* then
    },
  } as unknown as ChatProvider
  return { provider, seen }
}

/** Reads a stream's text as it comes; `until(text)` waits for it to contain something. */
function reading(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const state = { text: '', done: false }
  void (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) state.text += decoder.decode(r.value)
    state.done = true
  })().catch(() => (state.done = true))
  return { state, cancel: () => reader.cancel(), until: (what: string) => until(what, async () => state.text.includes(what), 10_000, 5) }
}

const options = (onEnd?: () => Promise<void>, signal = new AbortController().signal) => ({ includeUsage: false, signal, logger, onEnd, firstEventWaitMs: 20, keepAliveMs: 20 })

describe('a streamed completion whose first event is late', () => {
  test('starts with the role chunk, keeps the connection alive with comments, then streams the answer to [DONE]', async () => {
    const gate = Promise.withResolvers<void>()
    const { provider } = slowProvider(gate.promise, [{ type: 'text', delta: 'Thought it through.' }, { type: 'finish', reason: 'stop' }])
    const ended: string[] = []
    // Answered before the provider's first event.
    const res = await streamCompletion(provider, { model: 'gpt-4.1', messages: [] }, meta, options(async () => void ended.push('end')))
    expect(res.status).toBe(200)
    const body = reading(res.body!)
    await body.until('"role":"assistant"')
    await body.until(': keep-alive\n\n')
    gate.resolve()
    await until('the end of the stream', async () => body.state.done, 10_000, 5)
    const frames = body.state.text.split('\n\n').filter(Boolean)
    expect(frames[0]).toContain('"role":"assistant"')
    expect(frames.filter((f) => f === ': keep-alive').length).toBeGreaterThan(0)
    const data = frames.filter((f) => f.startsWith('data: ')).map((f) => f.slice(6))
    expect(data.at(-1)).toBe('[DONE]')
    expect(data.slice(1, -1).map((d) => JSON.parse(d).choices[0]?.delta.content ?? '').join('')).toBe('Thought it through.')
    // Comments only while the first event was awaited.
    expect(frames.findLastIndex((f) => f === ': keep-alive')).toBeLessThan(frames.findIndex((f) => f.includes('Thought it through.')))
    expect(ended).toEqual(['end'])
  })

  test('a failure after the answer started is an error chunk, and the stream ends without [DONE]', async () => {
    const gate = Promise.withResolvers<void>()
    const { provider } = slowProvider(gate.promise, new ProviderError('PROVIDER_UNAVAILABLE', { detail: 'overloaded' }))
    const ended: string[] = []
    const res = await streamCompletion(provider, { model: 'gpt-4.1', messages: [] }, meta, options(async () => void ended.push('end')))
    expect(res.status).toBe(200)
    const body = reading(res.body!)
    await body.until('"role":"assistant"')
    gate.resolve()
    await until('the end of the stream', async () => body.state.done, 10_000, 5)
    const data = body.state.text.split('\n\n').filter((f) => f.startsWith('data: ')).map((f) => f.slice(6))
    expect(JSON.parse(data.at(-1)!).error).toMatchObject({ type: 'api_error' })
    expect(data).not.toContain('[DONE]')
    expect(ended).toEqual(['end'])
  })

  test('a failure before the wait is over keeps its HTTP status (the call rejects)', async () => {
    const { provider } = slowProvider(Promise.resolve(), new ProviderError('PROVIDER_UNAVAILABLE'))
    await expect(streamCompletion(provider, { model: 'gpt-4.1', messages: [] }, meta, { ...options(), firstEventWaitMs: 5_000 })).rejects.toBeInstanceOf(ProviderError)
  })

  test('a client that leaves while the first event is awaited ends the provider call', async () => {
    const gate = Promise.withResolvers<void>()
    const { provider, seen } = slowProvider(gate.promise, [{ type: 'text', delta: 'never' }])
    const ended: string[] = []
    const res = await streamCompletion(provider, { model: 'gpt-4.1', messages: [] }, meta, options(async () => void ended.push('end')))
    const body = reading(res.body!)
    await body.until(': keep-alive\n\n')
    await body.cancel()
    await until('the provider call aborted and the call ended', async () => seen.aborted && ended.length === 1, 10_000, 5)
    expect(body.state.text).not.toContain('never')
  })
})
