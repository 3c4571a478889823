/**
 * A streamed completion whose provider is silent for long (a reasoning model): the answer starts
 * after `firstEventWaitMs` without the first event, and a comment goes out after each period of
 * `keepAliveMs` in which nothing else did.
 */
import { describe, expect, test } from 'bun:test'
import type { ChatProvider, StreamEvent } from '../../ai'
import { ProviderError } from '../../ai'
import type { Logger } from '../../lib/logger'
import { manualInterval } from '../../../tests/support/timers'
import { until } from '../../../tests/support/wait-for'
import { streamCompletion } from './stream'

const logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => logger } as Logger
const meta = { id: 'chatcmpl-test', created: 0, model: 'openai/gpt-4.1' }

/** A provider that sends `before`, waits for `gate`, then sends `then` (or fails with it); `aborted` once the call's signal is. */
function slowProvider(gate: Promise<void>, then: StreamEvent[] | Error, before: StreamEvent[] = []) {
  const seen = { aborted: false }
  const provider = {
    async *streamChat(req: { signal?: AbortSignal }) {
      req.signal?.addEventListener('abort', () => (seen.aborted = true))
      yield* before
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

describe('a streamed completion whose provider is silent', () => {
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
    expect(ended).toEqual(['end'])
  })

  test('a comment follows a period without a frame, none a period with one, and none once the stream ends', async () => {
    const { tick, cleared, restore } = manualInterval(20)
    try {
      const gates = [Promise.withResolvers<void>(), Promise.withResolvers<void>()]
      const provider = {
        async *streamChat() {
          yield { type: 'text', delta: 'a' }
          await gates[0]!.promise
          yield { type: 'text', delta: 'b' }
          await gates[1]!.promise
          yield { type: 'text', delta: 'c' }
          yield { type: 'finish', reason: 'stop' }
        },
      } as unknown as ChatProvider
      const res = await streamCompletion(provider, { model: 'gpt-4.1', messages: [] }, meta, { ...options(), firstEventWaitMs: 5_000 })
      const body = reading(res.body!)
      await body.until('"content":"a"')
      tick() // the role and "a" went out in this period: no comment
      tick() // nothing since: a comment
      await body.until(': keep-alive\n\n')
      gates[0]!.resolve()
      await body.until('"content":"b"')
      tick() // "b" went out in this period: no comment
      gates[1]!.resolve()
      await until('the end of the stream', async () => body.state.done, 10_000, 5)
      expect(cleared()).toBe(true)
      const shown = (f: string) => {
        if (f.startsWith(':') || f === 'data: [DONE]') return f
        const choice = JSON.parse(f.slice(6)).choices[0]
        return choice.delta.content ?? `finish: ${choice.finish_reason}`
      }
      expect(body.state.text.split('\n\n').filter(Boolean).map(shown)).toEqual(['', 'a', ': keep-alive', 'b', 'c', 'finish: stop', 'data: [DONE]'])
    } finally {
      restore()
    }
  })

  test('a model that reasons (not passed on by this API) keeps the connection alive with comments too', async () => {
    const gate = Promise.withResolvers<void>()
    const { provider } = slowProvider(gate.promise, [{ type: 'text', delta: 'Done.' }, { type: 'finish', reason: 'stop' }], [{ type: 'reasoning', delta: 'Let me see…' }])
    // The first event (reasoning) came at once: answered as before, with its status.
    const res = await streamCompletion(provider, { model: 'gpt-4.1', messages: [] }, meta, { ...options(), firstEventWaitMs: 5_000 })
    const body = reading(res.body!)
    await body.until(': keep-alive\n\n')
    expect(body.state.text).not.toContain('Let me see')
    gate.resolve()
    await until('the end of the stream', async () => body.state.done, 10_000, 5)
    expect(body.state.text).toContain('"content":"Done."')
    expect(body.state.text.endsWith('data: [DONE]\n\n')).toBe(true)
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
    await Bun.sleep(50) // what a second end or a late comment would need
    expect(ended).toEqual(['end'])
    expect(body.state.text).not.toContain('never')
  })
})
